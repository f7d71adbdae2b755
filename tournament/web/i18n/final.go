package i18n

// ForRound returns the message id of a round's words (a title, a heading, a
// table's name): for a stage of the final, id+".final" where the language
// has it (決勝, 決勝卓: locales/final.*.toml), else id, which names the
// round by its number (第3回戦, 3卓).
func (p Printer) ForRound(id string, final bool) string {
	if final {
		if _, ok := p.Lookup(id+".final", nil); ok {
			return id + ".final"
		}
	}
	return id
}

// TF is T for a round's words (ForRound): {{tf "round.heading" .Final "N" .N}}.
func (p Printer) TF(id string, final bool, args ...any) (string, error) {
	return p.T(p.ForRound(id, final), args...)
}

// TextFor is Text for a round's words (ForRound).
func (p Printer) TextFor(id string, final bool, data map[string]any) string {
	return p.Text(p.ForRound(id, final), data)
}
