package design

// fieldDesign returns the resolvable 2-(3q+1, 4, 1) design of a prime
// power q ≡ 1 (mod 4) (Handbook of Combinatorial Designs, 2nd ed., VII.7.5
// a): points GF(q) × Z_3 and ∞; with w primitive and e = w^((q-1)/4), so
// e² = -1, round 0 is {∞, (0,0), (0,1), (0,2)} and
// {(wⁱ, j), (-wⁱ, j), (e·wⁱ, j+1), (-e·wⁱ, j+1)} for 0 ≤ i < (q-1)/4 and
// each j; round a ∈ GF(q) (the first atMost) adds a to every first
// coordinate. Point (x, j) is player x + q·j, ∞ is player 3q.
func fieldDesign(q, atMost int) ([]Round, bool) {
	f, ok := newField(q)
	if !ok || q%4 != 1 {
		return nil, false
	}
	quarter := (q - 1) / 4
	e := f.power(quarter)
	type point struct{ x, j int }
	base := [][4]point{{{0, 0}, {0, 1}, {0, 2}, {-1, 0}}}
	for i := range quarter {
		w := f.power(i)
		for j := range 3 {
			base = append(base, [4]point{
				{w, j}, {f.neg(w), j}, {f.times(e, w), (j + 1) % 3}, {f.neg(f.times(e, w)), (j + 1) % 3},
			})
		}
	}
	var rounds []Round
	for a := range min(q, atMost) {
		r := make(Round, len(base))
		for t, table := range base {
			for k, pt := range table {
				if pt.x < 0 {
					r[t][k] = 3 * q
				} else {
					r[t][k] = f.plus(pt.x, a) + q*pt.j
				}
			}
		}
		rounds = append(rounds, r)
	}
	return rounds, true
}

// affineDesign returns AG(n, 4): the 4^n points of GF(4)^n, a round the
// lines of one direction (a point of PG(n-1, 4)), every pair on one line,
// so (4^n - 1)/3 rounds (the first atMost of them). Point coordinates are
// base-4 digits.
func affineDesign(n, atMost int) []Round {
	f, _ := newField(4)
	v := 1
	for range n {
		v *= 4
	}
	digits := func(a int) []int {
		d := make([]int, n)
		for i := range d {
			d[i], a = a%4, a/4
		}
		return d
	}
	number := func(d []int) int {
		a := 0
		for i := n - 1; i >= 0; i-- {
			a = a*4 + d[i]
		}
		return a
	}
	var rounds []Round
	for dir := 1; dir < v && len(rounds) < atMost; dir++ {
		// One direction per projective point: its first non-zero
		// coordinate (from the top) is 1.
		d := digits(dir)
		top := n - 1
		for d[top] == 0 {
			top--
		}
		if d[top] != 1 {
			continue
		}
		seen := make([]bool, v)
		var r Round
		for p := range v {
			if seen[p] {
				continue
			}
			var table [4]int
			pd := digits(p)
			for t := range 4 {
				pt := make([]int, n)
				for i := range pt {
					pt[i] = f.plus(pd[i], f.times(t, d[i]))
				}
				table[t] = number(pt)
				seen[table[t]] = true
			}
			r = append(r, table)
		}
		rounds = append(rounds, r)
	}
	return rounds
}
