package tournament

import "testing"

// A report is complete when the players it scores confirmed it: the same
// number of other players does not do.
func TestConfirmedByAll(t *testing.T) {
	scores := []Score{{PlayerID: 1}, {PlayerID: 2}, {PlayerID: 3}, {PlayerID: 4}}
	for _, tc := range []struct {
		confirmed []int64
		want      bool
	}{
		{[]int64{1, 2, 3, 4}, true},
		{[]int64{3, 1, 4, 2}, true},
		{[]int64{1, 2, 3}, false},
		{[]int64{1, 2, 3, 9}, false},
	} {
		r := Report{Scores: scores, Confirmed: tc.confirmed}
		if got := r.confirmedByAll(); got != tc.want {
			t.Errorf("Report{Confirmed: %v}.confirmedByAll() = %v, want %v", tc.confirmed, got, tc.want)
		}
	}
}
