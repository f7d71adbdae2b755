package route

// The paths of issue 27: staff accounts and their sessions, the two-person
// rule, judge calls, the live console and table devices.
const (
	// Staff is the head's page of the staff accounts; StaffMember one
	// account's form, StaffPassword its reset.
	Staff         = "/judge/staff"
	StaffMember   = Staff + "/:sid"
	StaffPassword = StaffMember + "/password"
	// Confirm is a table's confirmation of a result entered under the
	// two-person rule.
	Confirm = Table + "/confirm"
	// Calls is the open judge calls of a tournament as every console page
	// shows them (a part swapped in live); CallClaim, CallEscalate and
	// CallResolve answer one.
	Calls        = Tournament + "/calls"
	CallClaim    = Calls + "/:call/claim"
	CallEscalate = Calls + "/:call/escalate"
	CallResolve  = Calls + "/:call/resolve"
	// RoundLive is the round page's live parts.
	RoundLive = Round + "/live"
	// Device opens a table device of the table; DeviceRevoke ends them.
	// OpenDevice is where a device's link leads.
	Device       = Table + "/device"
	DeviceRevoke = Device + "/revoke"
	OpenDevice   = "/device/:token"
	// KioskCall is a player's call for a judge from the table's phone
	// page; KioskForget forgets the player a phone remembers.
	KioskCall   = KioskTable + "/call"
	KioskForget = Kiosk + "/forget"

	StaffAPI         = API + "/staff"
	StaffMemberAPI   = StaffAPI + "/:sid"
	StaffPasswordAPI = StaffMemberAPI + "/password"
	SessionAPI       = API + "/session"
	ConfirmResultAPI = ResultAPI + "/confirm"
	CallsAPI         = TournamentAPI + "/calls"
	CallAPI          = CallsAPI + "/:call"
	CallClaimAPI     = CallAPI + "/claim"
	CallEscalateAPI  = CallAPI + "/escalate"
	CallResolveAPI   = CallAPI + "/resolve"
	DeviceAPI        = TableAPI + "/device"
)

func init() {
	for name, p := range map[string]string{
		"staff": Staff, "staffMember": StaffMember, "staffPassword": StaffPassword, "confirm": Confirm,
		"calls": Calls, "callClaim": CallClaim, "callEscalate": CallEscalate, "callResolve": CallResolve,
		"roundLive": RoundLive, "device": Device, "deviceRevoke": DeviceRevoke, "openDevice": OpenDevice,
		"kioskCall": KioskCall, "kioskForget": KioskForget,
	} {
		byName[name] = p
	}
}
