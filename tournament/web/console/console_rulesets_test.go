package console_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The rulesets page sets the server's rulesets side by side, each setting
// said in words from the ruleset's data and marked where they differ: an
// organizer's own ruleset file gets its column like the presets.
func TestRulesetsPage(t *testing.T) {
	data, err := os.ReadFile("../../../config/rulesets/national-2025.json")
	if err != nil {
		t.Fatal(err)
	}
	// The national rules' earlier format: rounds 1–2 drawn in advance, then
	// Swiss, the leaders' table deciding the champion.
	own := strings.Replace(string(data), `"name": "national-2025"`, `"name": "national-2019"`, 1)
	event := regexp.MustCompile(`"event": \{[^}]*\}`)
	if !event.MatchString(own) {
		t.Fatal("national-2025.json has no event settings to change")
	}
	own = event.ReplaceAllLiteralString(own, `"event": {"rounds": ["schedule", "schedule", "swiss"], "final": "leaders-table", "final_ties": "standings"}`)
	file := filepath.Join(t.TempDir(), "national-2019.json")
	if err := os.WriteFile(file, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	rulesets, err := config.LoadRulesets(file)
	if err != nil {
		t.Fatal(err)
	}
	h := webtest.New(t, webtest.WithRulesets(rulesets)).Handler
	rec := webtest.Do(h, "GET", "/judge/rulesets", "", "Authorization", "Bearer test-token", "Accept-Language", "ja")
	if rec.Code != 200 {
		t.Fatalf("GET /judge/rulesets = %d\n%s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	heads := regexp.MustCompile(`<span class="rs-name">([^<]+)</span>`).FindAllStringSubmatch(body, -1)
	if len(heads) != 3 || heads[0][1] != "national-2019" || heads[1][1] != "national-2025" || heads[2][1] != "proshop-2003" {
		t.Fatalf("columns = %v, want national-2019, national-2025, proshop-2003", heads)
	}
	// row returns the cells of the setting's row, and whether it is marked as differing.
	row := func(key string) ([]string, bool) {
		m := regexp.MustCompile(`(?s)<tr id="setting-` + regexp.QuoteMeta(key) + `"( class="differs")?>(.*?)</tr>`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no row for %s", key)
		}
		var cells []string
		for _, c := range regexp.MustCompile(`<td>(.*?)</td>`).FindAllStringSubmatch(m[2], -1) {
			cells = append(cells, c[1])
		}
		return cells, m[1] != ""
	}
	tests := []struct {
		key     string
		differs bool
		cells   []string // by column; "" to skip
	}{
		{"board.method", true, []string{"", "", "固定配置をカプセルダイスで回す（白で内側、青で外枠。§3 イ）。チップは裏向きにシャッフルして配る（§3 ウ）"}},
		{"board.corners", true, []string{"1 北西 · 2 北東 · 3 東 · 4 南東 · 5 南西 · 6 西", "1 北西 · 2 北東 · 3 東 · 4 南東 · 5 南西 · 6 西", "—"}},
		{"board.chips", true, []string{"A5 B2 C6 D3 E8 F10 G9 H12 I11 J4 K8 L10 M9 N4 O5 P6 Q3 R11", "", "シャッフルして配る"}},
		{"dango", true, []string{"配り直しなし", "配り直しなし", ""}},
		{"time", true, []string{"", "初期配置 家1軒につき1分（4人卓8分・3人卓6分）＋ プレイ60分", "7分（初期配置を含む。§12）"}},
		{"time.final_turn_seconds", true, []string{"", "ゲーム時間の後は1手番2分。ジャッジが終了時刻を決め、10分前に告知", "なし（時間で終了）"}},
		{"vp", false, []string{"10点で勝利宣言・記録は10点まで", "", ""}},
		{"standings_order", false, []string{"1位の回数 → 勝利点合計 → 勝利点シェア", "", ""}},
		{"event.rounds", true, []string{"第1〜2回戦 事前の一括抽選（同卓の重複が最少） · 第3回戦から スイス式（順位順）", "第1回戦 抽選 · 第2回戦から スイス式（順位順）", ""}},
		{"event.final", true, []string{"最終回戦の1卓（トップ卓）の結果で優勝を決める", "予選の上位4人で決勝卓（同順位は記録された抽選で決める）", ""}},
		{"event.final_ties", true, []string{"予選の順位が上の人を上位とする", "同点は同順位", "同点は同順位"}},
	}
	for _, tt := range tests {
		cells, differs := row(tt.key)
		if len(cells) != 3 || differs != tt.differs {
			t.Errorf("%s: %d cells, differs %v; want 3, %v", tt.key, len(cells), differs, tt.differs)
			continue
		}
		for i, want := range tt.cells {
			if want != "" && cells[i] != want {
				t.Errorf("%s, column %d = %q, want %q", tt.key, i+1, cells[i], want)
			}
		}
	}
	// In English too.
	rec = webtest.Do(h, "GET", "/judge/rulesets", "", "Authorization", "Bearer test-token", "Accept-Language", "en")
	if !strings.Contains(rec.Body.String(), "initial placement at 1 min a settlement (8 min at 4 players, 6 min at 3), then 60 minutes of play") {
		t.Errorf("the English page lacks the national game time\n%s", rec.Body)
	}
}
