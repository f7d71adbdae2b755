package tournament

import (
	"context"
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"
)

// Role is what a staff account may do (issue 27): the head everything,
// a judge everything inside a tournament, a scorekeeper the results and
// what a table records. The route table says which role each action
// needs; docs/security.md lists them.
type Role string

// The roles, from the most to the least a role may do.
const (
	RoleHead        Role = "head"
	RoleJudge       Role = "judge"
	RoleScorekeeper Role = "scorekeeper"
)

// Roles are the roles, from the most to the least a role may do.
var Roles = []Role{RoleHead, RoleJudge, RoleScorekeeper}

func (r Role) rank() int {
	switch r {
	case RoleHead:
		return 3
	case RoleJudge:
		return 2
	case RoleScorekeeper:
		return 1
	}
	return 0
}

// Valid reports a role of Roles.
func (r Role) Valid() bool { return r.rank() > 0 }

// Allows reports whether an account of role r may do what need may: each
// role may do everything the roles below it may.
func (r Role) Allows(need Role) bool { return r.Valid() && r.rank() >= need.rank() }

// Staff is a staff account: a name, a role and a password of its own. The
// audit log names it for every change it makes.
type Staff struct {
	ID     int64
	Name   string
	Role   Role
	Active bool
	// PasswordHash is the bcrypt hash of its password (web/auth makes and
	// checks it); never shown.
	PasswordHash string
	// SessionsFrom ends every session of the account begun before it: a
	// deactivation or a new password moves it to now, on every server, as
	// each reads the account on every request.
	SessionsFrom time.Time
	CreatedAt    time.Time
}

// The actors the audit log names besides staff accounts: a script with
// the API token acts as a head named APIActor; the first start, and a
// password given to the server at start, as StartupActor. No account takes
// their names, nor PlayerActor's.
const (
	APIActor     = "API"
	StartupActor = "start-up"
)

// FirstHead is the name of the head account the first start makes.
const FirstHead = "head"

// StaffKey is the key an account's name is unique by, and found by at the
// login: the name in NFKC, lower case, without spaces, so that ＨＥＡＤ and
// "head " are one account.
func StaffKey(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(norm.NFKC.String(name))), "")
}

// StaffInput is a new account, as the head enters it.
type StaffInput struct {
	Name string
	Role Role
}

// StaffEdit is a change of an account: its role, or whether it is active;
// a field left nil stays as it is.
type StaffEdit struct {
	Role   *Role
	Active *bool
}

// checkStaffName returns a new account's name, or why it cannot be one.
func checkStaffName(name string) (string, error) {
	name, err := fieldJudge.clean(name)
	if err != nil {
		return "", err
	}
	switch StaffKey(name) {
	case "":
		// The head is naming a new account, not logged out: ask for the
		// name, not for a login.
		return "", invalid("staff-name-missing", "a staff account needs a name", nil)
	case StaffKey(APIActor), StaffKey(StartupActor), StaffKey(PlayerActor):
		return "", invalid("staff-name-reserved", fmt.Sprintf("the name %q is the audit log's own", name), map[string]any{"Name": name})
	}
	return name, nil
}

func checkRole(r Role) error {
	if !r.Valid() {
		return invalid("staff-role-unknown", fmt.Sprintf("unknown role %q", r), map[string]any{"Role": string(r)})
	}
	return nil
}

// staffJSON is what the audit log records of an account: never its hash.
type staffJSON struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Role   Role   `json:"role"`
	Active bool   `json:"active"`
}

func (s Staff) audited() staffJSON {
	return staffJSON{ID: s.ID, Name: s.Name, Role: s.Role, Active: s.Active}
}

// AddStaff makes an account named in.Name with the role in.Role and the
// password whose hash is hash, for the head judge; its name is unique
// (staff-name-taken). Audited outside any tournament, without the hash.
func (s *Service) AddStaff(ctx context.Context, judge string, in StaffInput, hash string) (Staff, error) {
	if err := checkJudge(judge); err != nil {
		return Staff{}, err
	}
	name, err := checkStaffName(in.Name)
	if err != nil {
		return Staff{}, err
	}
	if err := checkRole(in.Role); err != nil {
		return Staff{}, err
	}
	// A new account has no session to end: its first login holds on any
	// server, whatever that server's clock says.
	st := Staff{Name: name, Role: in.Role, Active: true, PasswordHash: hash, CreatedAt: s.now().UTC()}
	a := staffJSON{Name: name, Role: in.Role, Active: true}
	if err := s.store.AddStaff(ctx, &st, s.change(judge, "staff.add", "staff "+name, nil, &a)); err != nil {
		return Staff{}, err
	}
	return st, nil
}

// EditStaff changes an account's role or activity. A deactivated account's
// sessions end on every server (SessionsFrom); so that someone can always
// manage the staff, the last active head is neither demoted nor
// deactivated (last-head, checked again as the change is written).
func (s *Service) EditStaff(ctx context.Context, judge string, id int64, e StaffEdit) (Staff, error) {
	if err := checkJudge(judge); err != nil {
		return Staff{}, err
	}
	before, err := s.store.StaffMember(ctx, id)
	if err != nil {
		return Staff{}, err
	}
	after := before
	if e.Role != nil {
		if err := checkRole(*e.Role); err != nil {
			return Staff{}, err
		}
		after.Role = *e.Role
	}
	if e.Active != nil {
		after.Active = *e.Active
		if before.Active && !after.Active {
			after.SessionsFrom = s.now().UTC()
		}
	}
	if after.Role == before.Role && after.Active == before.Active {
		return before, nil
	}
	c := s.change(judge, "staff.edit", "staff "+before.Name, before.audited(), after.audited())
	if err := s.store.UpdateStaff(ctx, before, after, c); err != nil {
		return Staff{}, err
	}
	return after, nil
}

// ResetStaffPassword gives an account the password whose hash is hash and
// ends its sessions. Audited, without either.
func (s *Service) ResetStaffPassword(ctx context.Context, judge string, id int64, hash string) (Staff, error) {
	if err := checkJudge(judge); err != nil {
		return Staff{}, err
	}
	before, err := s.store.StaffMember(ctx, id)
	if err != nil {
		return Staff{}, err
	}
	after := before
	after.PasswordHash, after.SessionsFrom = hash, s.now().UTC()
	c := s.change(judge, "staff.password", "staff "+before.Name, nil, before.audited())
	if err := s.store.UpdateStaff(ctx, before, after, c); err != nil {
		return Staff{}, err
	}
	return after, nil
}

// StaffList lists the accounts by ID.
func (s *Service) StaffList(ctx context.Context) ([]Staff, error) { return s.store.StaffMembers(ctx) }

// StaffMember returns one account.
func (s *Service) StaffMember(ctx context.Context, id int64) (Staff, error) {
	return s.store.StaffMember(ctx, id)
}
