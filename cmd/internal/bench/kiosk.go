package bench

// KioskSummary is what cmd/kioskbench -json prints and cmd/benchreport reads
// for its kiosk rows: latencies in milliseconds.
type KioskSummary struct {
	Clients          int     `json:"clients"`
	Saves            int     `json:"saves"`
	MaxFeeds         int     `json:"max_feeds"`          // the server's cap on live feeds
	RefusedAtConnect int     `json:"refused_at_connect"` // clients whose feed that cap refused (503)
	SaveP50          float64 `json:"save_p50_ms"`
	SaveP99          float64 `json:"save_p99_ms"`
	EventP50         float64 `json:"event_p50_ms"`
	EventP99         float64 `json:"event_p99_ms"`
	LastClientP99    float64 `json:"last_client_p99_ms"`
	NewStateP50      float64 `json:"new_state_p50_ms"`
	NewStateP99      float64 `json:"new_state_p99_ms"`
	PageLoads        int     `json:"page_loads"` // the loaders' pages during the fan-out
	PageP50          float64 `json:"page_p50_ms"`
	PageP99          float64 `json:"page_p99_ms"`
	AloneP50         float64 `json:"page_alone_p50_ms"` // the same page loads before the clients connect
	AloneP99         float64 `json:"page_alone_p99_ms"`
	PageErrors       int64   `json:"page_errors"` // answers other than the page, the refetches' included
	Busy             int64   `json:"busy"`        // of them, 503
	TooMany          int64   `json:"too_many"`    // of them, 429
	HeapPerClientKB  float64 `json:"heap_per_client_kb"`
	PeakRSSMB        float64 `json:"peak_rss_mb"`
	ConnectedSeconds float64 `json:"connected_s"`
	CPUPerSaveMS     float64 `json:"server_cpu_per_save_ms"` // the server's CPU, fan-out and refetches, per save
}

// HallSummary is what cmd/hallbench -json prints and cmd/benchreport reads
// for its hall rows: latencies in milliseconds.
type HallSummary struct {
	Players, Judges, Screens int
	Actions                  map[string][2]float64 `json:"actions_p50_p99_ms"`
	JudgeP99                 float64               `json:"judge_p99_ms"`  // the slowest judge action's p99
	JudgeSlowest             string                `json:"judge_slowest"` // that action
	Rounds                   int                   `json:"rounds"`        // Swiss rounds before the final
	WindowSeconds            float64               `json:"window_s"`      // a round's results come in over this long
	Saves                    int                   `json:"saves"`         // the results saved (judges' and players'), whose new state the screens fetched
	SaveToEvent              [2]float64            `json:"save_to_every_screen_event_p50_p99_ms"`
	SaveToState              [2]float64            `json:"save_to_every_screen_state_p50_p99_ms"`
	Standings                [2]float64            `json:"standings_after_last_result_p50_max_ms"`
	StandingsOnEvery         [2]float64            `json:"standings_on_every_screen_p50_max_ms"`
	Missing                  int                   `json:"missing"`
	Acked                    int                   `json:"acknowledged"`
	Busy                     int64                 `json:"busy"`
	PeakRSSMB                float64               `json:"peak_rss_mb"`
	ServerCPUSeconds         float64               `json:"server_cpu_s"`
	ClientCPUSeconds         float64               `json:"client_cpu_s"`
	Seconds                  float64               `json:"seconds"`
	LoadAverage              [2]string             `json:"load_average"`
}
