package game

// Kind is what a move does.
type Kind int8

// The moves of a game record.
const (
	Place            Kind = iota // §4: a settlement and its road
	Roll                         // §6 ア: the dice
	Discard                      // §6 イ: half the hand after a 7
	MoveRobber                   // §6 イ: the robber after a 7, and the robbery
	Trade                        // §7 ア: with another player
	BankTrade                    // §7 イ, ウ: with the bank, 4:1 or at a harbour
	BuildRoad                    // §8 ア
	BuildSettlement              // §8 イ
	BuildCity                    // §8 ウ
	Buy                          // §8 エ: a development card
	PlaySoldier                  // §9 ア
	PlayRoadBuilding             // §9 イ
	PlayHarvest                  // §9 ウ
	PlayMonopoly                 // §9 エ
	Declare                      // §11
	EndTurn                      // §5
	TimeUp                       // §12: the judge's time signal
	numKinds
)

// Move is one move of a game record, with every random outcome of a real
// table given: the dice, the card stolen, the development card drawn. Only
// the fields of its Kind are read. It is a small value with no pointers, so
// playing moves allocates nothing.
type Move struct {
	Kind Kind
	// Player is who acts: -1 for the player whose turn it is (or who
	// places, during §4). Discards name the discarding player.
	Player int8
	// Other is the trading partner (Trade) or the player robbed
	// (MoveRobber, PlaySoldier), -1 for nobody.
	Other  int8
	Vertex int8    // the settlement or city (Place, BuildSettlement, BuildCity)
	Edges  [2]int8 // the road (Place, BuildRoad) or roads (PlayRoadBuilding); -1 for none
	Hex    int8    // the robber's new hex (MoveRobber, PlaySoldier)
	// Resource is the card stolen (MoveRobber, PlaySoldier) or the resource
	// named (PlayMonopoly); NoResource when nobody is robbed.
	Resource Resource
	Dice     [2]int8 // Roll
	Card     Card    // Buy: the card drawn
	// Give and Get are the cards the acting player hands over and receives
	// (Trade, BankTrade); Give is the discard (Discard), Get the cards
	// taken (PlayHarvest).
	Give, Get Cards
}

// NewMove returns a move of kind k by the current player with no fields set.
func NewMove(k Kind) Move {
	return Move{Kind: k, Player: -1, Other: -1, Vertex: -1, Edges: [2]int8{-1, -1}, Hex: -1, Resource: NoResource, Card: -1}
}
