package tournament

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// CollationKey returns the key players are listed by, as a Japanese judge
// reads a list: by reading, with katakana, half-width and full-width forms
// folded as FoldReading does (タナカ, ﾀﾅｶ and たなか together); by the
// name for a player registered without a reading; then by name and ID, so
// that players with the same reading keep one order. Keys compare as
// strings. The database's binary order is not this order: it puts every
// katakana reading after every hiragana one.
func CollationKey(kana, name string, id int64) string {
	key := FoldReading(kana)
	if key == "" {
		key = FoldReading(name)
	}
	// NUL sorts before any character, so a reading that is the start of
	// another (たなか, たなかい) comes first; IDs are positive, so padded
	// digits compare as numbers.
	return fmt.Sprintf("%s\x00%s\x00%019d", key, name, id)
}

// FoldReading folds a name or reading for sorting and search: NFKC (full-
// and half-width forms alike), lower case, katakana as hiragana, no spaces.
// The long-vowel mark ー is kept as it is: hiragana writes it the same way.
// static/kiosk.js folds what a player types into the search the same way.
func FoldReading(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(s) {
		switch {
		case unicode.IsSpace(r):
			continue
		case r >= 'ァ' && r <= 'ヶ':
			r -= 'ァ' - 'ぁ'
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// sortPlayers sorts players by CollationKey, computing each key once.
func sortPlayers(ps []Player) {
	keys := make(map[int64]string, len(ps))
	for _, p := range ps {
		keys[p.ID] = CollationKey(p.Kana, p.Name, p.ID)
	}
	slices.SortFunc(ps, func(a, b Player) int { return strings.Compare(keys[a.ID], keys[b.ID]) })
}

// Hiragana is a reading as the pages show it: in hiragana, whether it was
// typed in katakana, half-width katakana or hiragana, so that a list never
// mixes ヤマダ ユウト and やまもと だいすけ. The reading is stored as typed;
// only its display is folded. Spaces, the long vowel mark ー and anything
// that is not kana stay as they are.
func Hiragana(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0xFF61 && r <= 0xFF9F {
			// Half-width katakana (ｶﾞ): widened with its sound marks.
			return Hiragana(norm.NFKC.String(s))
		}
		if r >= 'ァ' && r <= 'ヶ' {
			r -= 'ァ' - 'ぁ'
		}
		b.WriteRune(r)
	}
	return b.String()
}
