// Package game holds the base game's rules as the tournament rulebook
// states them (§4 to §12) with the rulings of docs/rules.md: a game state, the
// moves that change it, and the checks a judge needs, both for a whole game
// record and for a position rebuilt on the table piece by piece. A rebuilt
// position is evaluated for a judge's ruling (Evaluate): each player's
// longest road with one longest trail, the holders of the 2-point cards and
// the rule that put each there, the VP by where they come from; and it
// answers the questions a judge is called for: what a roll produces, who
// discards on a 7, where the robber may go and whom it may rob, a player's
// trade rates, whether a declaration stands.
//
// Like the rest of referee it is pure: the board comes from the referee's
// board and geometry, everything random at a real table (dice, a drawn
// development card, a stolen card) is an input of the move, and the random
// playouts take their source from the caller. The state is fixed-size
// arrays and bitsets indexed by vertex, edge and hex, so that playing a
// move allocates nothing: the tests and benchmarks play millions of random
// games. Every rule cites its section (§8 ア = section 8, item ア).
package game
