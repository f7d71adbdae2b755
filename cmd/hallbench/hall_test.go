package main

import (
	"math/rand/v2"
	"testing"
	"time"
)

// A form is read as a browser submits it: hidden and typed values, the
// checked boxes and radios alone, a select's chosen option (else its
// first), a textarea's text, never a button; each form its own fields.
func TestFindForm(t *testing.T) {
	page := []byte(`<html><body>
<form method="post" action="/a" id="first"><input type="hidden" name="version" value="2"><button name="action" value="x">x</button></form>
<form method="post" action="/b" id="score-form">
  <input type="hidden" name="version" value="3">
  <input type="hidden" name="player" value="7"><input type="hidden" name="player" value="8">
  <input name="vp_7" type="number" value="">
  <label><input type="radio" name="declared" value="7"> A</label>
  <label><input type="radio" name="declared" value="8" checked> B</label>
  <input type="checkbox" name="late" value="1">
  <select name="level"><option value="">suggested</option><option value="warning" selected>warning</option></select>
  <select name="round"><option value="0">none</option><option value="1">1</option></select>
  <textarea name="note">a note</textarea>
  <button type="submit" name="action" value="save">save</button>
</form></body></html>`)
	f, err := findForm(page, withID("score-form"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"version": "3", "player": "7", "vp_7": "", "declared": "8", "level": "warning", "round": "0", "note": "a note"}
	if f.action != "/b" || len(f.values) != len(want) {
		t.Fatalf("the form = %s %v, want /b with %v", f.action, f.values, want)
	}
	for k, v := range want {
		if got := f.values.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	// A name given to several fields (the sheet's players) sends them all.
	if got := f.values["player"]; len(got) != 2 || got[1] != "8" {
		t.Errorf("player = %q, want both players, in order", got)
	}
	if _, err := findForm(page, posts("/a", "version")); err != nil {
		t.Errorf("the first form by its action and field: %v", err)
	}
	if _, err := findForm(page, posts("/a", "auto")); err == nil {
		t.Error("a form without the field was found")
	}
}

// A refusal is the page's first error message; a page without one is none.
func TestRefusal(t *testing.T) {
	if got := refusal([]byte(`<p class="hint">x</p><p class="field-error" id="e">VPが多すぎます</p>`)); got != "VPが多すぎます" {
		t.Errorf("refusal = %q", got)
	}
	if got := refusal([]byte(`<p class="p-done">送信しました</p>`)); got != "" {
		t.Errorf("a page that says it was sent: refusal %q, want none", got)
	}
}

// A table's revisions are its result entries of the audit log in order,
// whatever else comes between.
func TestResultVersions(t *testing.T) {
	got := resultVersions([]auditLine{
		{ID: 9, Action: "result.correct", Subject: "round 1 table 2"},
		{ID: 4, Action: "result.save", Subject: "round 1 table 2 (reported by 選手001)"},
		{ID: 5, Action: "penalty.record", Subject: "round 1 table 2"},
		{ID: 6, Action: "result.save", Subject: "round 2 table 2"},
	})
	want := map[resultKey]int64{{1, 2, 1}: 4, {1, 2, 2}: 9, {2, 2, 1}: 6}
	if len(got) != len(want) {
		t.Fatalf("versions = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%v = %d, want %d", k, got[k], v)
		}
	}
}

// A sheet gives the declared winner 10 VP and the others less; a
// correction keeps the winner and swaps two others.
func TestSheets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	players := []int64{11, 12, 13, 14}
	vp, declared := sheet(rng, players)
	if vp[declared] != 10 || len(vp) != 4 {
		t.Fatalf("sheet = %v declaring %d", vp, declared)
	}
	for id, v := range vp {
		if id != declared && (v >= 10 || v < 1) {
			t.Errorf("player %d has %d VP beside the winner", id, v)
		}
	}
	c := corrected(&ack{vp: vp, declared: declared, revision: 1})
	changed := 0
	for id := range vp {
		if c.vp[id] != vp[id] {
			changed++
		}
	}
	if c.revision != 2 || c.declared != declared || c.vp[declared] != 10 || changed != 2 {
		t.Errorf("the correction = %+v of %v, want revision 2, the winner kept, two swapped", c, vp)
	}
}

// A change is on every screen once every screen fetched after hearing of
// it; the time is the last screen's.
func TestCoverage(t *testing.T) {
	start := time.Now()
	c := newCoverage(2, start)
	c.heard(3, start.Add(10*time.Millisecond))
	c.heard(3, start.Add(20*time.Millisecond))
	c.fetched(0, 3, start.Add(100*time.Millisecond))
	if _, _, ok := c.onEvery(3); ok {
		t.Fatal("on every screen with one of two fetched")
	}
	c.fetched(1, 4, start.Add(300*time.Millisecond))
	event, state, ok := c.onEvery(3)
	if !ok || event.Sub(start) != 20*time.Millisecond || state.Sub(start) != 300*time.Millisecond {
		t.Errorf("change 3: event %v, state %v, %v; want 20ms, 300ms", event.Sub(start), state.Sub(start), ok)
	}
	if _, _, ok := c.onEvery(4); ok {
		t.Error("change 4 is on one screen, said to be on every one")
	}
}
