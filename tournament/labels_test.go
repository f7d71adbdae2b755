package tournament

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLabels(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players []Player
		want    map[int64]string
	}{
		{"different names", []Player{{ID: 1, Name: "佐藤 太郎", Kana: "さとう たろう"}, {ID: 2, Name: "田中 一郎"}},
			map[int64]string{1: "佐藤 太郎", 2: "田中 一郎"}},
		{"same name, other readings", []Player{{ID: 1, Name: "佐藤 太郎", Kana: "さとう たろう"}, {ID: 2, Name: "佐藤　太郎", Kana: "さどう たろう"}, {ID: 3, Name: "鈴木"}},
			map[int64]string{1: "佐藤 太郎（さとう たろう）", 2: "佐藤　太郎（さどう たろう）", 3: "鈴木"}},
		{"same name and reading, folded", []Player{{ID: 12, Name: "佐藤 太郎", Kana: "さとう たろう"}, {ID: 14, Name: "佐藤 太郎", Kana: "サトウ タロウ"}},
			map[int64]string{12: "佐藤 太郎（さとう たろう・12）", 14: "佐藤 太郎（さとう たろう・14）"}},
		{"same name, no reading", []Player{{ID: 3, Name: "田中"}, {ID: 4, Name: "田中", Kana: "たなか"}},
			map[int64]string{3: "田中（3）", 4: "田中（たなか）"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Labels(tc.players)); diff != "" {
				t.Errorf("Labels(%v) mismatch (-want +got):\n%s", tc.players, diff)
			}
		})
	}
}
