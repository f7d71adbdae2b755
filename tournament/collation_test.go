package tournament_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/tournament"
)

func TestCollationKey(t *testing.T) {
	for _, tc := range []struct {
		name, kana, player string
		id                 int64
		want               string
	}{
		{"hiragana", "たなか", "田中", 1, "たなか\x00田中\x000000000000000000001"},
		{"katakana", "タナカ", "田中", 1, "たなか\x00田中\x000000000000000000001"},
		{"half-width katakana", "ﾀﾅｶ", "田中", 1, "たなか\x00田中\x000000000000000000001"},
		{"half-width voiced", "ｳｴﾀﾞ", "上田", 2, "うえだ\x00上田\x000000000000000000002"},
		{"long-vowel mark kept", "ﾗｰﾒﾝ", "拉麺", 3, "らーめん\x00拉麺\x000000000000000000003"},
		{"spaces", "タナカ　タロウ", "田中 太郎", 4, "たなかたろう\x00田中 太郎\x000000000000000000004"},
		{"empty kana: the name", "", "Ａｌｅｘ", 5, "alex\x00Ａｌｅｘ\x000000000000000000005"},
		{"blank kana: the name", "　", "鈴木", 6, "鈴木\x00鈴木\x000000000000000000006"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tournament.CollationKey(tc.kana, tc.player, tc.id); got != tc.want {
				t.Errorf("CollationKey(%q, %q, %d) = %q, want %q", tc.kana, tc.player, tc.id, got, tc.want)
			}
		})
	}
}

// Keys order a reading before the readings it starts, and IDs as numbers.
func TestCollationKeyOrder(t *testing.T) {
	for _, tc := range []struct {
		name         string
		before, next [2]string // kana and name
		idA, idB     int64
	}{
		{"prefix first", [2]string{"たなか", "田中"}, [2]string{"たなかい", "田中井"}, 9, 1},
		{"katakana among hiragana", [2]string{"アオキ", "青木"}, [2]string{"いのうえ", "井上"}, 9, 1},
		{"same reading: by name", [2]string{"たなか", "田中"}, [2]string{"タナカ", "田仲"}, 9, 1},
		{"same reading and name: by ID", [2]string{"たなか", "田中"}, [2]string{"タナカ", "田中"}, 2, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tournament.CollationKey(tc.before[0], tc.before[1], tc.idA)
			b := tournament.CollationKey(tc.next[0], tc.next[1], tc.idB)
			if a >= b {
				t.Errorf("CollationKey(%q, %q, %d) = %q, want before %q", tc.before[0], tc.before[1], tc.idA, a, b)
			}
		})
	}
}

// FoldReading is the server's half of the kiosk search: kiosk.js folds
// what is typed the same way.
func TestFoldReading(t *testing.T) {
	for in, want := range map[string]string{
		"タナカ":      "たなか",
		"ﾀﾅｶ ﾀﾛｳ":  "たなかたろう",
		"ヴァイオリン":   "ゔぁいおりん",
		"ＡＢＣ ｄｅｆ":  "abcdef",
		"らーめん":     "らーめん",
		"":         "",
		"青木 あおき":   "青木あおき",
		"ヶ月":       "ゖ月",
		"ヷ":        "ヷ", // no hiragana
		"\u3000\t": "",
	} {
		if got := tournament.FoldReading(in); got != want {
			t.Errorf("FoldReading(%q) = %q, want %q", in, got, want)
		}
	}
}

// The players come back in the order a Japanese judge reads a list,
// whatever script or width their readings were typed in and whether they
// have one; the export and the standings' ties follow the same order.
func TestPlayersByReading(t *testing.T) {
	c := newConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{
		Name: "11月定例会", Date: "2025-11-22", Venue: "カードショップ", Rounds: 1,
	})).OK(t)
	for _, in := range []tournament.PlayerInput{
		{Name: "鈴木"},                // no reading: by name, after the readings
		{Name: "中村", Kana: "ナカムラ"},  // katakana
		{Name: "田中", Kana: "たなか"},   // hiragana
		{Name: "上田", Kana: "ｳｴﾀﾞ"},  // half-width
		{Name: "Alex"},              // no reading
		{Name: "佐藤", Kana: "さとう"},   // hiragana
		{Name: "田中", Kana: "タナカ"},   // the same reading and name: by ID
		{Name: "青木", Kana: "アオキ"},   // katakana
		{Name: "田中井", Kana: "たなかい"}, // after たなか
		{Name: "遠藤", Kana: "ｴﾝﾄﾞｰ"}, // half-width, long-vowel mark
		{Name: "井上", Kana: "いのうえ"},  // hiragana
		{Name: "岡田", Kana: "ＯＫＡＤＡ"}, // full-width Latin
	} {
		must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, in)).OK(t)
	}
	want := []string{
		"Alex", "岡田 ＯＫＡＤＡ", "青木 アオキ", "井上 いのうえ", "上田 ｳｴﾀﾞ", "遠藤 ｴﾝﾄﾞｰ", "佐藤 さとう",
		"田中 たなか", "田中 タナカ", "田中井 たなかい", "中村 ナカムラ", "鈴木",
	}
	line := func(name, kana string) string { return strings.TrimSpace(name + " " + kana) }

	players := must(c.Svc.Players(c.Ctx, tour.ID)).OK(t)
	var got []string
	for _, p := range players {
		got = append(got, line(p.Name, p.Kana))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Players order (-want +got):\n%s", diff)
	}

	d := must(c.Svc.ExportData(c.Ctx, tour.ID)).OK(t)
	got = got[:0]
	for _, p := range d.Players {
		got = append(got, line(p.Name, p.Kana))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ExportData players order (-want +got):\n%s", diff)
	}

	// Before any game every player shares rank 1: the tie order is the list's.
	st := must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t)
	got = got[:0]
	for _, x := range st {
		if x.Rank != 1 {
			t.Fatalf("Standings before any game: %s has rank %d, want 1", x.Name, x.Rank)
		}
		got = append(got, line(x.Name, x.Kana))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Standings tie order (-want +got):\n%s", diff)
	}
}
