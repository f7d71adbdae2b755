package design

// Cyclic is a schedule with a cyclic group of automorphisms, kept as its
// base rounds. Its players are the points (x, c) of Z_G × {0..C-1}, numbered
// x + G·c, and F fixed points numbered G·C + j; round β·G + g is base round
// β with every (x, c) moved to (x+g, c) and the fixed points left alone. A
// base round of differences each met once develops into G rounds in which
// nobody meets anyone twice: the classical method of differences (Bose,
// 1939), as in the Handbook of Combinatorial Designs' 1-rotational designs.
type Cyclic struct {
	G, C, F int
	// Base lists each base round's tables; each base round seats every
	// player once.
	Base [][][4]int
	// Invariant lists the tables of rounds the group fixes, one table of
	// each orbit: the round is its tables and all their translates.
	Invariant [][][4]int
}

// Players is the number of points.
func (d Cyclic) Players() int { return d.G*d.C + d.F }

// Rounds develops the base rounds.
func (d Cyclic) Rounds() []Round {
	var out []Round
	for _, base := range d.Base {
		for g := range d.G {
			r := make(Round, len(base))
			for t, table := range base {
				for k, p := range table {
					r[t][k] = d.shift(p, g)
				}
			}
			out = append(out, r)
		}
	}
	for _, tables := range d.Invariant {
		var r Round
		for _, table := range tables {
			for g := range d.G {
				var t [4]int
				for k, p := range table {
					t[k] = d.shift(p, g)
				}
				r = append(r, t)
			}
		}
		out = append(out, r)
	}
	return out
}

func (d Cyclic) shift(p, g int) int {
	if p >= d.G*d.C {
		return p
	}
	x, c := p%d.G, p/d.G
	return (x+g)%d.G + d.G*c
}
