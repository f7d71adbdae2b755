package auth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/catanjudge/catanjudge/tournament"
)

// Accounts is where the staff accounts are read at the login and on every
// request (their role, whether their sessions hold), and where the first
// start makes the head's. store.Store satisfies it; the use cases that
// change accounts are the service's (tournament.Service.AddStaff, ...).
type Accounts interface {
	// StaffMember returns an account; an error wrapping
	// tournament.ErrNotFound when there is none.
	StaffMember(ctx context.Context, id int64) (tournament.Staff, error)
	// StaffByName returns the account of a name, as tournament.StaffKey
	// folds it.
	StaffByName(ctx context.Context, name string) (tournament.Staff, error)
	// AddFirstHead makes a head account named name with the password hash
	// hash when there is no account, and reports whether it did.
	AddFirstHead(ctx context.Context, name, hash string, now time.Time) (bool, error)
	// SetFirstHeadPassword gives the first head account the password hash
	// hash, unless same says its hash is of that password already, and
	// returns the account.
	SetFirstHeadPassword(ctx context.Context, hash string, same func(hash string) bool, now time.Time) (tournament.Staff, error)
	// Device returns the table device of a token's hash.
	Device(ctx context.Context, hash []byte) (tournament.Device, error)
}

// PasswordFile is the file in the data folder that holds the first head
// account's generated password.
const PasswordFile = "judge-password.txt"

// SetUpHead makes sure a head account exists before the server starts. A
// non-empty password (CATANJUDGE_JUDGE_PASSWORD) is the first head
// account's (tournament.FirstHead, made by the first start): it replaces
// the stored one and, when it differs, ends that account's sessions.
// Without one, the accounts stay as they are; on the first start the head
// account is made with a readable random password written to
// dataDir/judge-password.txt, readable by its owner only. A database of
// the versions before staff accounts has its shared judge password moved
// to the head account already (store migration 17).
//
// It returns the path of that file when it holds the head's password, or
// "" when the password was given, or changed since (a file that no longer
// holds it is removed).
func SetUpHead(ctx context.Context, acc Accounts, password, dataDir string) (string, error) {
	file := filepath.Join(dataDir, PasswordFile)
	now := time.Now()
	if password != "" {
		hash, err := HashPassword(password)
		if err != nil {
			return "", err
		}
		made, err := acc.AddFirstHead(ctx, tournament.FirstHead, hash, now)
		if err != nil {
			return "", fmt.Errorf("make the head account: %w", err)
		}
		if !made {
			same := func(h string) bool { return PasswordMatches(h, password) }
			if _, err := acc.SetFirstHeadPassword(ctx, hash, same, now); err != nil {
				return "", err
			}
		}
		// A file left by an earlier start would now show a wrong password.
		if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("remove old password file: %w", err)
		}
		return "", nil
	}
	// The first start names the head tournament.FirstHead, and no other
	// account takes that name: without it, there is no account yet.
	head, err := acc.StaffByName(ctx, tournament.FirstHead)
	switch {
	case err == nil:
		return keptPassword(file, head)
	case !errors.Is(err, tournament.ErrNotFound):
		return "", fmt.Errorf("read the head account: %w", err)
	}
	password = readablePassword()
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("create data folder: %w", err)
	}
	// The file is written before the account is made, so an account made
	// on the first start always has a password someone can read.
	if err := os.WriteFile(file, []byte(password+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write judge password: %w", err)
	}
	hash, err := HashPassword(password)
	if err != nil {
		return "", err
	}
	// Several servers starting at once on an empty database each make a
	// password: the first account made is the head's, and the others'
	// files go.
	made, err := acc.AddFirstHead(ctx, tournament.FirstHead, hash, now)
	if err != nil {
		return "", fmt.Errorf("make the head account: %w", err)
	}
	if !made {
		if err := os.Remove(file); err != nil {
			return "", fmt.Errorf("remove the password file another server's account replaced: %w", err)
		}
		return "", nil
	}
	return file, nil
}

// keptPassword returns file when it holds head's password, and removes it
// when it no longer does (a head reset it on the staff page).
func keptPassword(file string, head tournament.Staff) (string, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read judge password: %w", err)
	}
	if PasswordMatches(head.PasswordHash, strings.TrimSpace(string(data))) {
		return file, nil
	}
	if err := os.Remove(file); err != nil {
		return "", fmt.Errorf("remove the password file of a password changed since: %w", err)
	}
	return "", nil
}

// PasswordCost is the bcrypt cost of the staff's password hashes: bcrypt's
// default; tests lower it to keep their many logins fast.
var PasswordCost = bcrypt.DefaultCost

// HashPassword returns the bcrypt hash of a staff account's password.
func HashPassword(password string) (string, error) {
	hash, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(hash), nil
}

// PasswordMatches reports whether hash is password's.
func PasswordMatches(hash, password string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}

// NewPassword returns a new account's password, or a reset one: about 80
// random bits, readable (readablePassword).
func NewPassword() string { return readablePassword() }

// noAccount is the hash the login compares a password with when the name
// has no account, so that an unknown name takes as long as a wrong
// password and the login does not tell which names exist.
var noAccount = sync.OnceValue(func() string {
	h, _ := bcrypt.GenerateFromPassword([]byte(readablePassword()), PasswordCost)
	return string(h)
})
