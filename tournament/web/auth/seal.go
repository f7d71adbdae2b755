package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
)

// Sealer seals what the database keeps for the servers' eyes alone (the
// codes on a batch of players' cards) with AES-256-GCM, under a key
// derived with HKDF-SHA256 from the session keys and a label of its use:
// every server of an event shares the session keys (SharedSessionKeys),
// so each opens what another sealed, while the database, a backup or a
// pg_dump holds nothing that opens it (the keys are never in the
// database). A server with other keys opens nothing.
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer returns the sealer of the use label under sessionKeys (as
// LoadSessionKeys or SharedSessionKeys give them); nil keys make a key of
// this process alone, as sessionStore does.
func NewSealer(sessionKeys []byte, label string) (*Sealer, error) {
	if sessionKeys == nil {
		sessionKeys = make([]byte, sessionKeyBytes)
		_, _ = rand.Read(sessionKeys)
	}
	key, err := hkdf.Key(sha256.New, sessionKeys, nil, "catanjudge "+label, 32)
	if err != nil {
		return nil, fmt.Errorf("sealing key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("sealing key: %w", err)
	}
	// A random nonce per seal: a key seals few enough messages (batches of
	// cards) that 96 random bits never repeat.
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, fmt.Errorf("sealing key: %w", err)
	}
	return &Sealer{aead: aead}, nil
}

// Seal returns plain sealed, bound to about (what it is: opening it as
// anything else fails).
func (s *Sealer) Seal(plain, about []byte) []byte {
	return s.aead.Seal(nil, nil, plain, about)
}

// Open returns what Seal sealed about the same thing, or an error when
// sealed was sealed under another key, about something else, or changed.
func (s *Sealer) Open(sealed, about []byte) ([]byte, error) {
	plain, err := s.aead.Open(nil, nil, sealed, about)
	if err != nil {
		return nil, fmt.Errorf("open sealed data: %w", err)
	}
	return plain, nil
}
