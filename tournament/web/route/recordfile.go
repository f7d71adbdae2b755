package route

// The record file (issue 28): the tournament page's download of
// RecordAPI, which a judge's session reads as the API's token does.
func init() {
	byName["recordFile"] = RecordAPI
}
