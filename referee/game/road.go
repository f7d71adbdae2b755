package game

import "math/bits"

// longestTrail returns the length of the longest road in roads (§10 ア):
// the longest trail that uses each road once, may turn at a fork and may
// pass a corner twice, but does not go on through a corner in cut, the
// corners with an opponent's settlement or city. A trail may start or end
// at such a corner, so the road into it counts.
//
// It is a depth-first search over the colour's own roads, at most a few
// dozen; the search keeps its graph in arrays on the stack and allocates
// nothing. maxTrailRoads bounds the roads it is given.
func longestTrail(roads edgeSet, cut uint64) int {
	var g trailGraph
	g.build(roads, cut)
	best := 0
	for v := range g.nv {
		// A longest trail can be taken to start at a dead end, a fork or
		// a cut corner, unless its part of the network is a ring, whose
		// corners all have two roads: every corner is tried, which costs
		// little at these sizes and needs no such argument.
		if l := g.walk(v, 0); l > best {
			best = l
			if best == g.ne {
				break
			}
		}
	}
	return best
}

// maxTrailRoads is the most roads of one colour longestTrail is given: the
// 15 pieces of §8, and what a position a judge records may hold beyond them.
const maxTrailRoads = 24

// trailGraph is a colour's roads with local ids: corners 0..nv-1, roads
// 0..ne-1.
type trailGraph struct {
	nv, ne int
	deg    [2 * maxTrailRoads]int8
	adj    [2 * maxTrailRoads][3]struct{ road, to int8 }
	cut    uint64 // local corners that end a trail
}

func (g *trailGraph) build(roads edgeSet, cut uint64) {
	var local [numVertices]int8
	for i := range local {
		local[i] = -1
	}
	id := func(v int) int {
		if local[v] < 0 {
			local[v] = int8(g.nv)
			if cut&(1<<v) != 0 {
				g.cut |= 1 << g.nv
			}
			g.nv++
		}
		return int(local[v])
	}
	for w, word := range [2]uint64{roads.lo, roads.hi} {
		for word != 0 {
			e := 64*w + bits.TrailingZeros64(word)
			word &= word - 1
			if g.ne == maxTrailRoads {
				return
			}
			a, b := id(int(topo.edgeEnds[e][0])), id(int(topo.edgeEnds[e][1]))
			g.adj[a][g.deg[a]] = struct{ road, to int8 }{int8(g.ne), int8(b)}
			g.deg[a]++
			g.adj[b][g.deg[b]] = struct{ road, to int8 }{int8(g.ne), int8(a)}
			g.deg[b]++
			g.ne++
		}
	}
}

// walk returns the longest trail from corner v using roads not in used.
func (g *trailGraph) walk(v int, used uint32) int {
	best := 0
	for i := range g.deg[v] {
		a := g.adj[v][i]
		if used&(1<<a.road) != 0 {
			continue
		}
		l := 1
		// §10 ア: an opponent's building cuts the road; the trail ends there.
		if g.cut&(1<<a.to) == 0 {
			l += g.walk(int(a.to), used|1<<a.road)
		}
		best = max(best, l)
	}
	return best
}

// longestHolder returns who holds the longest road card after a change,
// from its holder before (-1 for the bank) and each colour's longest road
// now (§10 ア, ウ). cut says the holder's road was cut: an opponent built in
// the middle of it, or it lost a road. keeps is the ruleset's holder-keeps
// tie policy.
func longestHolder(holder int8, lengths []int8, cut, keeps bool) int8 {
	best, count, who := int8(0), 0, int8(-1)
	for q, l := range lengths {
		switch {
		case l > best:
			best, count, who = l, 1, int8(q)
		case l == best:
			count++
		}
	}
	// §10 ア: 5 roads or more to hold the card.
	const need = 5
	if holder >= 0 && cut {
		// §10 ア: when the holder's road is cut, the card goes at once to
		// the player with the longest road of 5 or more; if several share
		// that length, it returns to the bank until one of them again has
		// the single longest road. Ruling: even when the holder is among
		// them, unless the ruleset lets the holder keep it (the base game).
		switch {
		case best < need:
			return -1
		case count == 1:
			return who
		case keeps && lengths[holder] == best:
			return holder
		}
		return -1
	}
	switch {
	case best < need:
		return holder
	case holder >= 0 && lengths[holder] == best:
		// §10 ア: an equal length does not take the card.
		return holder
	case count == 1:
		// §10 ア: the first road of 5 or more, or a strictly longer one,
		// takes it; from the bank, the single longest road takes it.
		return who
	case holder >= 0:
		// §10 ウ: a holder not entitled to the card loses it; when several
		// are entitled, it returns to the bank.
		return -1
	}
	return holder
}

// armyHolder returns who holds the largest army card after player p played
// a soldier, from its holder before and the soldiers each colour played (§10 イ).
func armyHolder(holder int8, soldiers []int8, p int) int8 {
	// §10 イ: the first to play 3 soldiers takes it; a strictly larger army
	// takes it from the holder.
	if soldiers[p] >= 3 && (holder < 0 || soldiers[p] > soldiers[holder]) {
		return int8(p)
	}
	return holder
}
