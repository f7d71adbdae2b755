package bench

// KioskSummary is what cmd/kioskbench -json prints and cmd/benchreport reads
// for its kiosk rows: latencies in milliseconds.
type KioskSummary struct {
	Clients          int     `json:"clients"`
	Saves            int     `json:"saves"`
	SaveP50          float64 `json:"save_p50_ms"`
	SaveP99          float64 `json:"save_p99_ms"`
	EventP50         float64 `json:"event_p50_ms"`
	EventP99         float64 `json:"event_p99_ms"`
	LastClientP99    float64 `json:"last_client_p99_ms"`
	NewStateP50      float64 `json:"new_state_p50_ms"`
	NewStateP99      float64 `json:"new_state_p99_ms"`
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
