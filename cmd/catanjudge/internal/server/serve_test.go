package server

import (
	"bytes"
	"net"
	"strings"
	"testing"
)

// kioskBase takes the public URL when set, else the listening address,
// with a network address of this machine for "every interface".
func TestKioskBase(t *testing.T) {
	tcp := func(s string) net.Addr {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	tests := []struct {
		public string
		addr   net.Addr
		want   string
	}{
		{"http://192.168.1.20:8080", tcp("0.0.0.0:8080"), "http://192.168.1.20:8080"},
		{"", tcp("127.0.0.1:8080"), "http://127.0.0.1:8080"},
		{"", tcp("192.168.1.20:9000"), "http://192.168.1.20:9000"},
	}
	for _, tt := range tests {
		if got := kioskBase(tt.public, tt.addr); got != tt.want {
			t.Errorf("kioskBase(%q, %v) = %q, want %q", tt.public, tt.addr, got, tt.want)
		}
	}
	got := kioskBase("", tcp("0.0.0.0:8080"))
	if urls := shopURLs(tcp("0.0.0.0:8080").(*net.TCPAddr)); len(urls) > 0 && got != urls[0] || len(urls) == 0 && got != "http://127.0.0.1:8080" {
		t.Errorf("kioskBase(\"\", 0.0.0.0:8080) = %q, want this machine's first shop address (%v) or loopback", got, urls)
	}
}

// TestStartHintUsesRealPort checks that the hint for players' phones names
// the port the server listens on, not always 8080.
func TestStartHintUsesRealPort(t *testing.T) {
	var out bytes.Buffer
	printShopAddresses(&out, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9090}, "", "http://127.0.0.1:9090")
	if got := out.String(); !strings.Contains(got, "--addr 0.0.0.0:9090 (make run ADDR=0.0.0.0:9090)") || strings.Contains(got, "8080") {
		t.Errorf("the hint for a server on 127.0.0.1:9090 says %q, want --addr 0.0.0.0:9090", got)
	}
}
