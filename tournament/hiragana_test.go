package tournament

import "testing"

// Issue 25: readings are shown in hiragana whatever kana they were typed in.
func TestHiragana(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ヤマダ ユウト", "やまだ ゆうと"},
		{"やまもと だいすけ", "やまもと だいすけ"},
		{"ｻﾄｳ ﾀﾛｳ", "さとう たろう"},
		{"ヴィクトール・ルー", "ゔぃくとーる・るー"},
		{"Smith", "Smith"},
	} {
		if got := Hiragana(tc.in); got != tc.want {
			t.Errorf("Hiragana(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
