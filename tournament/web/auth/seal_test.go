package auth

import (
	"bytes"
	"testing"
)

// What one server seals, another with the same session keys opens, about
// the same thing only; a server with other keys, or a sealer of another
// use, opens nothing; a changed byte opens nothing.
func TestSealer(t *testing.T) {
	secret := bytes.Repeat([]byte{7}, 32)
	shared, err := SharedSessionKeys(secret)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := SharedSessionKeys(secret)
	otherKeys, _ := SharedSessionKeys(bytes.Repeat([]byte{8}, 32))
	newSealer := func(keys []byte, label string) *Sealer {
		s, err := NewSealer(keys, label)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := newSealer(shared, "players' cards")
	plain, about := []byte("ABCD-EFGH 青木"), []byte("cards 1 batch")
	sealed := a.Seal(plain, about)
	if bytes.Contains(sealed, plain[:9]) {
		t.Fatalf("sealed %q holds the plain text", sealed)
	}
	if got, err := newSealer(again, "players' cards").Open(sealed, about); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("another server with the same keys opens %q, %v; want %q", got, err, plain)
	}
	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-1] ^= 1
	for _, tc := range []struct {
		what   string
		s      *Sealer
		sealed []byte
		about  []byte
	}{
		{"other keys", newSealer(otherKeys, "players' cards"), sealed, about},
		{"another use", newSealer(shared, "something else"), sealed, about},
		{"about something else", a, sealed, []byte("cards 2 batch")},
		{"a changed byte", a, tampered, about},
		{"keys of no server", newSealer(nil, "players' cards"), sealed, about},
	} {
		if got, err := tc.s.Open(tc.sealed, tc.about); err == nil {
			t.Errorf("%s: opened %q, want an error", tc.what, got)
		}
	}
	if bytes.Equal(a.Seal(plain, about), sealed) {
		t.Error("two seals of the same text are equal: the nonce repeats")
	}
}
