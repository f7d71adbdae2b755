package bench

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for _, tt := range []struct {
		p    int
		want time.Duration
	}{{50, 50 * time.Millisecond}, {99, 99 * time.Millisecond}, {100, 100 * time.Millisecond}, {1, time.Millisecond}} {
		if got := Percentile(ds, tt.p); got != tt.want {
			t.Errorf("Percentile(1..100 ms, %d) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got := Percentile(nil, 50); got != 0 {
		t.Errorf("Percentile(none) = %v, want 0", got)
	}
	if ds[0] != 100*time.Millisecond {
		t.Error("Percentile sorted its argument")
	}
}

func TestFormats(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Count(7), "7"}, {Count(20000), "20,000"}, {Count(1234567), "1,234,567"},
		{Duration(1900 * time.Nanosecond), "1.9 µs"}, {Duration(2110 * time.Microsecond), "2.11 ms"},
		{Duration(43 * time.Millisecond), "43 ms"}, {Duration(1990 * time.Millisecond), "1.99 s"},
		{Ratio(3*time.Second, 2*time.Second), "×1.5"}, {Ratio(98.0, 1.0), "×98"}, {Ratio(1.0, 0.0), "×?"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// Every device dials from an address of its own.
func TestDevicesHaveTheirOwnAddresses(t *testing.T) {
	seen := map[string]int{}
	for _, i := range []int{0, 1, 253, 254, 255, 65533, 65534, 69999} {
		ip := deviceIP(i).String()
		if j, ok := seen[ip]; ok {
			t.Errorf("devices %d and %d both dial from %s", j, i, ip)
		}
		seen[ip] = i
		if ip[len(ip)-2:] == ".0" || ip[len(ip)-4:] == ".255" {
			t.Errorf("device %d dials from %s, a network or broadcast address", i, ip)
		}
	}
}

func TestSwissEventStandings(t *testing.T) {
	e := NewSwissEvent(8, 1)
	if req := e.Request(1); len(req.Players) != 8 || req.Players[0].Standing != 0 {
		t.Fatalf("before any round: %+v, want 8 players without standings", req.Players)
	}
	e.Play([][]string{{"p0000", "p0001", "p0002", "p0003"}, {"p0004", "p0005", "p0006", "p0007"}}, nil)
	req := e.Request(2)
	if len(req.History) != 2 || req.Players[0].Standing != 1 {
		t.Fatalf("after a round: history %v, players %+v", req.History, req.Players)
	}
}
