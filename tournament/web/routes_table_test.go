package web

// What only the tests read of the route table: an access's name for their
// messages, and the whole table as one list.

func (a access) String() string {
	return [...]string{"public", "players", "player", "judge"}[a]
}

// routes is the route table as one list, each route with its group's
// access.
func (s *site) routes() []routeEntry {
	var out []routeEntry
	for _, g := range s.groups() {
		for _, rt := range g.routes {
			rt.Access = g.access
			out = append(out, rt)
		}
	}
	return out
}
