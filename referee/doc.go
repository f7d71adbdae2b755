// Package referee holds the rules of the shop's Catan tournament rulebook
// (Trading-Cards 2001 Pro-Shop, 2nd edition, 2003) as pure functions.
//
// Everything a rule needs is passed in: the ruleset, the dice that were rolled,
// the seeds of any shuffle. Nothing here reads a clock, uses global randomness,
// logs or does I/O, so every board, seating and pairing can be replayed from
// its recorded inputs. Each rule cites the rulebook section it implements
// (§3 = section 3); docs/rules.md states the rulings on points the text leaves open.
package referee
