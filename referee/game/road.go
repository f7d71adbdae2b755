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

// longestTrailPath returns one longest road of roads as a trail: its
// roads in order and the corners it passes, one more than the roads, so
// that road i joins corners i and i+1. It finds the length longestTrail
// finds, by the same search that also keeps the best trail so far; it is
// for a judge's evaluation, not for play, and allocates only its result.
func longestTrailPath(roads edgeSet, cut uint64) (edges, corners []int) {
	var t tracer
	t.build(roads, cut)
	for v := range t.nv {
		t.corners[0] = int8(v)
		t.trace(v, 0, 0)
		if t.bestLen == t.ne {
			break
		}
	}
	if t.bestLen == 0 {
		return nil, nil
	}
	edges = make([]int, t.bestLen)
	corners = make([]int, t.bestLen+1)
	for i := range t.bestLen {
		edges[i] = int(t.edgeOf[t.best[i]])
	}
	for i := range t.bestLen + 1 {
		corners[i] = int(t.vertexOf[t.bestCorners[i]])
	}
	return edges, corners
}

// tracer is a trail search that remembers the trail: the graph, the
// global ids of its local corners and roads, the trail being walked and
// the longest found.
type tracer struct {
	trailGraph
	vertexOf    [2 * maxTrailRoads]int8
	edgeOf      [maxTrailRoads]int8
	roads       [maxTrailRoads]int8
	corners     [maxTrailRoads + 1]int8
	best        [maxTrailRoads]int8
	bestCorners [maxTrailRoads + 1]int8
	bestLen     int
}

func (t *tracer) build(roads edgeSet, cut uint64) {
	t.trailGraph.build(roads, cut)
	// The local ids are given in the order build meets them: roads by
	// global id, each road's ends in order.
	var seen [numVertices]bool
	n := 0
	for i := range t.ne {
		e := roads.nth(i)
		t.edgeOf[i] = int8(e)
		for _, v := range topo.edgeEnds[e] {
			if !seen[v] {
				t.vertexOf[n] = v
				seen[v] = true
				n++
			}
		}
	}
}

// trace walks on from corner v, the end of a trail of depth roads.
func (t *tracer) trace(v, depth int, used uint32) {
	for i := range t.deg[v] {
		a := t.adj[v][i]
		if used&(1<<a.road) != 0 {
			continue
		}
		t.roads[depth] = a.road
		t.corners[depth+1] = a.to
		if depth+1 > t.bestLen {
			t.bestLen = depth + 1
			copy(t.best[:], t.roads[:depth+1])
			copy(t.bestCorners[:], t.corners[:depth+2])
		}
		// §10 ア: an opponent's building cuts the road; the trail ends there.
		if t.cut&(1<<a.to) == 0 {
			t.trace(int(a.to), depth+1, used|1<<a.road)
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
	h, _ := longestDecision(holder, lengths, cut, keeps)
	return h
}

// roadDecision is the rule of §10 that decided the longest road card's
// holder after a change.
type roadDecision int8

const (
	roadStays      roadDecision = iota // nothing moved it: no cut, no road that takes it
	roadTook                           // §10 ア: from the bank, the single longest road of 5 or more
	roadTookOver                       // §10 ア: a strictly longer road than the holder's
	roadLost                           // §10 ウ: the holder is no longer entitled, several are: to the bank
	roadCutTo                          // §10 ア: after a cut, to the single longest road of 5 or more
	roadCutKept                        // §10 ア: after a cut, the holder still has the single longest
	roadCutTie                         // §10 ア: after a cut, a tie: to the bank
	roadCutTieKept                     // §10 ア, holder-keeps: after a cut, the tied holder keeps it
	roadCutShort                       // §10 ア: after a cut, nobody has 5: to the bank
)

// longestDecision is longestHolder with the rule that decided.
func longestDecision(holder int8, lengths []int8, cut, keeps bool) (int8, roadDecision) {
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
	if holder >= 0 && cut {
		// §10 ア: when the holder's road is cut, the card goes at once to
		// the player with the longest road of 5 or more; if several share
		// that length, it returns to the bank until one of them again has
		// the single longest road. Ruling: even when the holder is among
		// them, unless the ruleset lets the holder keep it (the base game).
		switch {
		case best < roadNeed:
			return -1, roadCutShort
		case count == 1 && who == holder:
			return who, roadCutKept
		case count == 1:
			return who, roadCutTo
		case keeps && lengths[holder] == best:
			return holder, roadCutTieKept
		}
		return -1, roadCutTie
	}
	switch {
	case best < roadNeed:
		return holder, roadStays
	case holder >= 0 && lengths[holder] == best:
		// §10 ア: an equal length does not take the card.
		return holder, roadStays
	case count == 1 && holder >= 0:
		// §10 ア: a strictly longer road takes it.
		return who, roadTookOver
	case count == 1:
		// §10 ア: the first road of 5 or more takes it; from the bank,
		// the single longest road takes it.
		return who, roadTook
	case holder >= 0:
		// §10 ウ: a holder not entitled to the card loses it; when several
		// are entitled, it returns to the bank.
		return -1, roadLost
	}
	return holder, roadStays
}

// roadNeed is the longest road's least length (§10 ア), and armyNeed the
// largest army's least soldiers (§10 イ).
const (
	roadNeed = 5
	armyNeed = 3
)

// armyHolder returns who holds the largest army card after player p played
// a soldier, from its holder before and the soldiers each colour played (§10 イ).
func armyHolder[N int8 | int](holder int8, soldiers []N, p int) int8 {
	// §10 イ: the first to play 3 soldiers takes it; a strictly larger army
	// takes it from the holder.
	if soldiers[p] >= armyNeed && (holder < 0 || soldiers[p] > soldiers[holder]) {
		return int8(p)
	}
	return holder
}
