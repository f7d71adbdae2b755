package live_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament/web/live"
)

// clientFrom is an HTTP client whose connections come from the loopback
// address ip (any of 127.0.0.0/8 on Linux): another device, as the
// server sees it.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// Over HTTP: the feeds beyond one address's share are refused with 429
// and a message, while another device still gets its feed.
func TestOneClientCannotTakeEveryFeed(t *testing.T) {
	env, broker := newLiveEnv(t)
	tr, _ := env.SeedTournament(4)
	url := fmt.Sprintf("%s/api/v1/tournaments/%d/events", env.Server.URL, tr.ID)
	hog := clientFrom("127.0.0.1")
	defer hog.Transport.(*http.Transport).CloseIdleConnections()
	var feeds []*stream
	defer func() {
		for _, f := range feeds {
			f.close()
		}
	}()
	for range live.DefaultPerClient {
		feeds = append(feeds, openStream(t, hog, url))
	}
	res, err := hog.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "接続が多すぎます") || res.Header.Get("Retry-After") == "" {
		t.Errorf("feed %d from one address = %d %s, want 429 with a message and Retry-After", live.DefaultPerClient+1, res.StatusCode, body)
	}
	phone := clientFrom("127.0.0.2")
	defer phone.Transport.(*http.Transport).CloseIdleConnections()
	feeds = append(feeds, openStream(t, phone, url))
	if n := broker.Subscribers(); n != live.DefaultPerClient+1 {
		t.Errorf("Subscribers() = %d, want %d", n, live.DefaultPerClient+1)
	}
}

// A feed lasts its lifetime, then tells the page to reconnect and ends,
// freeing its slot; the page's next feed is served as the first was.
func TestFeedsEndAfterTheirLifetime(t *testing.T) {
	env, broker := newLiveEnv(t)
	broker.Lifetime = 300 * time.Millisecond
	tr, _ := env.SeedTournament(4)
	url := fmt.Sprintf("%s/api/v1/tournaments/%d/events", env.Server.URL, tr.ID)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for round := range 2 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || !strings.HasSuffix(string(body), "event: reconnect\ndata: {}\n\n") {
			t.Fatalf("feed %d ended with %q, %v; want a reconnect event and the end", round+1, body, err)
		}
		if took := time.Since(began); took < 200*time.Millisecond {
			t.Errorf("feed %d ended after %v, before its lifetime", round+1, took)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for broker.Subscribers() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := broker.Subscribers(); n != 0 {
		t.Errorf("Subscribers() = %d after the feeds ended, want 0", n)
	}
}
