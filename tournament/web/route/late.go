package route

// The paths of late entries, substitutes and no-shows (issue 30).
const (
	// Late enters late players in a round; Substitute marks a player a
	// substitute; SitIn seats one at a table of 3; NoShow takes a player
	// who did not come from their table.
	Late       = Round + "/late"
	Substitute = Player + "/substitute"
	SitIn      = Round + "/sit-in"
	NoShow     = Round + "/no-show"

	LateAPI       = RoundAPI + "/late"
	SubstituteAPI = PlayerAPI + "/substitute"
	SitInAPI      = TableAPI + "/sit-in"
	NoShowAPI     = TableAPI + "/no-show"
)

func init() {
	for name, p := range map[string]string{"late": Late, "substitute": Substitute, "sitIn": SitIn, "noShow": NoShow} {
		byName[name] = p
	}
}
