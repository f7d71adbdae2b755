// Package bench holds what the benchmark commands (cmd/benchreport,
// cmd/kioskbench, cmd/pairbench) share: percentiles and the report's
// number formats, the machine's description, a simulated Swiss event to
// pair, the site served on loopback, and clients that are devices of their
// own, as the server's per-address limits see them.
package bench

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Percentile is the p-th percentile of ds, nearest rank; 0 for none.
func Percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s) + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

// Median is the middle of xs (the upper one of an even count).
func Median[T cmp.Ordered](xs []T) T {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// Duration prints d with three significant figures or so: 1.9 µs, 2.11 ms,
// 43 ms, 1.99 s.
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1e3)
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// Count prints n with thousands separators: 20,000.
func Count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Ratio prints a/b as ×1.5 (to one decimal below 10, ×98 above): of two
// durations, or of two rates.
func Ratio[T ~int64 | ~float64](a, b T) string {
	if b <= 0 {
		return "×?"
	}
	if r := float64(a) / float64(b); r < 10 {
		return fmt.Sprintf("×%.1f", r)
	}
	return fmt.Sprintf("×%.0f", float64(a)/float64(b))
}

// Machine says where the numbers come from: the system, the CPUs and their
// model, GOMAXPROCS and the Go version.
func Machine() string {
	cpu := ""
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = " (" + strings.TrimSpace(v) + ")"
				break
			}
		}
		f.Close()
	}
	return fmt.Sprintf("%s/%s, %d CPUs%s, GOMAXPROCS %d, %s",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, runtime.GOMAXPROCS(0), runtime.Version())
}

// RaiseFileLimit lets the process hold a connection per client, and the
// server's end of it too.
func RaiseFileLimit() {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) == nil && l.Cur < l.Max {
		l.Cur = l.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	}
}

// Device is the transport of device i (from 0): its connections come from
// a loopback address of its own, 127.1.0.2, 127.1.0.3, ..., 127.1.1.2, ... (Linux routes
// all of 127.0.0.0/8 to this machine), as phones on the shop's network
// would: the server bounds what one address may hold.
func Device(i int) *http.Transport {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: deviceIP(i)}, Timeout: 10 * time.Second}
	return &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 16, DisableCompression: true, IdleConnTimeout: time.Minute}
}

// deviceIP is device i's address: 250 to each 127.1.x.0/24, from .2 on.
func deviceIP(i int) net.IP {
	block, host := i/250, i%250+2
	return net.IPv4(127, byte(1+block>>8), byte(block), byte(host))
}

// Serve serves h on a free loopback port until stop, as cmd/catanjudge
// serves the site (requests' contexts end with ctx), and returns its base
// URL.
func Serve(ctx context.Context, h http.Handler) (base string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// Feed opens tournament tid's live feed (Server-Sent Events) on the site at
// base, as the judges' pages do: the response, whose body the caller reads and
// closes, or why the feed is not open.
func Feed(ctx context.Context, client *http.Client, base string, tid int64) (*http.Response, error) {
	return FeedAt(ctx, client, fmt.Sprintf("%s/api/v1/tournaments/%d/events", base, tid))
}

// FeedAt opens the live feed at url (the kiosk's, say, whose events carry
// its live parts), as Feed does.
func FeedAt(ctx context.Context, client *http.Client, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, fmt.Errorf("events: %w", Status(res.StatusCode))
	}
	return res, nil
}

// Status is an answer other than 200, as an error.
type Status int

func (s Status) Error() string { return fmt.Sprintf("%d %s", int(s), http.StatusText(int(s))) }
