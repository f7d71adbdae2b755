package tournamenttest

import "github.com/catanjudge/catanjudge/referee/game"

// Placements are the 8 placements of §4 at a 4-player table (snake order,
// the moves name no player), on coastal corners apart from one another:
// legal on every board.
var Placements = []game.MoveSpec{
	{Do: "place", Settlement: "S(1,-3)", Road: []string{"S(1,-3)", "N(0,-2)"}},
	{Do: "place", Settlement: "S(3,-2)", Road: []string{"S(3,-2)", "N(2,-1)"}},
	{Do: "place", Settlement: "N(1,2)", Road: []string{"N(1,2)", "S(1,1)"}},
	{Do: "place", Settlement: "N(-3,2)", Road: []string{"N(-3,2)", "S(-2,1)"}},
	{Do: "place", Settlement: "S(-2,-1)", Road: []string{"S(-2,-1)", "N(-3,1)"}},
	{Do: "place", Settlement: "S(-1,2)", Road: []string{"S(-1,2)", "N(-1,3)"}},
	{Do: "place", Settlement: "N(2,1)", Road: []string{"N(2,1)", "S(3,-1)"}},
	{Do: "place", Settlement: "S(0,-3)", Road: []string{"S(0,-3)", "N(-1,-1)"}},
}
