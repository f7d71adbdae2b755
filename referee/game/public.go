package game

// What the players at a table see of a game, and so what a page may show
// the room (a projector, a stream) while it is played: the pieces, the
// robber, the number of cards in each hand; never the development cards
// still face down, nor the card a robber took.

// PublicVP returns player p's victory points as the table sees them. A
// one-point card need not be shown and counts while held (§9 オ); it is
// kept face down like every card bought (§8 エ) until its holder declares
// victory and shows them all (§11). So the one-point cards count here only
// for the player who declared.
func (s *State) PublicVP(p int) VP {
	v := s.VP(p)
	if s.endedBy != ByDeclaration || int(s.winner) != p {
		v.PointCards = 0
	}
	return v
}

// Public returns the move as the other players see it made: the
// development card drawn stays face down (§8 エ), and the resource card a
// robber takes is drawn at random from the hand (§6 イ, §9 ア) for the robber
// alone to see; neither is shown. It is for showing a move, not for
// playing it: Decode refuses a purchase without its card.
func (m MoveSpec) Public() MoveSpec {
	m.Card, m.Took = "", ""
	return m
}
