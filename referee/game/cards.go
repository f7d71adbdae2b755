package game

import "github.com/catanjudge/catanjudge/referee"

// Resource is one of the five resources (§1: 19 cards of each).
type Resource int8

// The resources, in the order the API lists them.
const (
	Brick Resource = iota
	Lumber
	Ore
	Grain
	Wool
)

// NoResource marks a move field left empty.
const NoResource Resource = -1

// numResources is the number of resources; hands and the bank are arrays of it.
const numResources = 5

// bankStock is the bank's cards of each resource at the start (§1).
const bankStock = 19

var resourceNames = [numResources]string{"brick", "lumber", "ore", "grain", "wool"}

// String returns the resource's name in the API.
func (r Resource) String() string {
	if r < 0 || r >= numResources {
		return "none"
	}
	return resourceNames[r]
}

// Resources lists every resource in the API's order.
var Resources = [numResources]Resource{Brick, Lumber, Ore, Grain, Wool}

// ParseResource returns the resource named s ("brick", "lumber", "ore", "grain", "wool").
func ParseResource(s string) (Resource, bool) {
	for r, n := range resourceNames {
		if n == s {
			return Resource(r), true
		}
	}
	return NoResource, false
}

// Cards counts resource cards by resource: a hand, the bank, a trade.
type Cards [numResources]int8

// Total returns the number of cards.
func (c Cards) Total() int {
	return int(c[0]) + int(c[1]) + int(c[2]) + int(c[3]) + int(c[4])
}

// covers reports whether c holds at least the cards of d.
func (c Cards) covers(d Cards) bool {
	return c[0] >= d[0] && c[1] >= d[1] && c[2] >= d[2] && c[3] >= d[3] && c[4] >= d[4]
}

func (c *Cards) add(d Cards) {
	for r := range c {
		c[r] += d[r]
	}
}

func (c *Cards) take(d Cards) {
	for r := range c {
		c[r] -= d[r]
	}
}

// The building costs of §8, paid to the bank.
var (
	roadCost       = Cards{Brick: 1, Lumber: 1}                    // §8 ア
	settlementCost = Cards{Brick: 1, Lumber: 1, Wool: 1, Grain: 1} // §8 イ
	cityCost       = Cards{Grain: 2, Ore: 3}                       // §8 ウ
	cardCost       = Cards{Wool: 1, Grain: 1, Ore: 1}              // §8 エ
)

// Card is a kind of development card (チャンスカード, §9).
type Card int8

// The development cards.
const (
	Soldier Card = iota
	RoadBuilding
	Harvest
	Monopoly
	Point
)

const numCards = 5

var cardNames = [numCards]string{"soldier", "road_building", "harvest", "monopoly", "point"}

// String returns the card's name in the API.
func (c Card) String() string {
	if c < 0 || c >= numCards {
		return "none"
	}
	return cardNames[c]
}

// ParseCard returns the card named s ("soldier", "road_building", "harvest", "monopoly", "point").
func ParseCard(s string) (Card, bool) {
	for c, n := range cardNames {
		if n == s {
			return Card(c), true
		}
	}
	return -1, false
}

// Deck counts development cards by kind.
type Deck [numCards]int8

// Total returns the number of cards.
func (d Deck) Total() int {
	return int(d[0]) + int(d[1]) + int(d[2]) + int(d[3]) + int(d[4])
}

// FullDeck is the 25 development cards of §1: 14 soldiers, 2 road building,
// 2 harvest, 2 monopoly and 5 one-point cards.
var FullDeck = Deck{Soldier: 14, RoadBuilding: 2, Harvest: 2, Monopoly: 2, Point: 5}

// The pieces of each colour (§1, §8).
const (
	maxRoads       = 15
	maxSettlements = 5
	maxCities      = 4
)

// terrainResource is what each terrain produces (§6 ア); the desert nothing.
func terrainResource(t referee.Terrain) Resource {
	switch t {
	case referee.Hills:
		return Brick
	case referee.Forest:
		return Lumber
	case referee.Mountains:
		return Ore
	case referee.Fields:
		return Grain
	case referee.Pasture:
		return Wool
	}
	return NoResource
}
