package route

// The paths beyond one event (issue 29): the ratings, the seasons and
// their qualification ledgers, and the import of past events.
const (
	PersonRatingAPI  = PersonAPI + "/rating"
	PersonRealName   = PersonAPI + "/real_name"
	RatingsAPI       = API + "/ratings"
	SeasonsAPI       = API + "/seasons"
	SeasonAPI        = SeasonsAPI + "/:season"
	SeasonTableAPI   = SeasonAPI + "/standings"
	QualificationAPI = SeasonAPI + "/qualification"
	SeasonExportAPI  = SeasonAPI + "/export.xlsx"
	PastEventsAPI    = API + "/events/import"

	// SeasonPage is a season's standings on the kiosk's side, to print.
	SeasonPage = "/seasons/:season"
	// Seasons is the judges' list of seasons and the form of a new one;
	// Season one with its qualification ledger; PastEvents the import of
	// past events from a results sheet.
	Seasons           = "/judge/seasons"
	Season            = Seasons + "/:season"
	PastEvents        = "/judge/past-events"
	PastEventsConfirm = PastEvents + "/confirm"
	RealName          = Player + "/real-name"
)

func init() {
	for name, path := range map[string]string{
		"seasonPage": SeasonPage, "seasons": Seasons, "season": Season, "seasonExport": SeasonExportAPI,
		"pastEvents": PastEvents, "pastEventsConfirm": PastEventsConfirm, "realName": RealName,
	} {
		byName[name] = path
	}
}
