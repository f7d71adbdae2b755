package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A bench's server runs in a child process of its own (the bench's own
// program with its serve flag), so that its memory and CPU are its own,
// measured apart from the clients'. It says "ready BASE FIELDS..." on its
// standard output once it serves, answers each line of its standard input
// with one line, "mem" with its Memory, and stops at the end of its input.

// Child is a server a bench started in a child process.
type Child struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	Base string   // the site's address, http://127.0.0.1:PORT
	More []string // the fields after the address on its ready line
}

// StartChild runs this program again with args, for it to serve
// (ServeChild), and waits until it is ready.
func StartChild(args ...string) (*Child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Child{cmd: cmd, in: in, out: bufio.NewScanner(outPipe)}
	c.out.Buffer(make([]byte, 64<<10), 64<<20)
	if !c.out.Scan() {
		c.Stop()
		return nil, errors.New("the server did not start")
	}
	fields := strings.Fields(c.out.Text())
	if len(fields) < 2 || fields[0] != "ready" {
		c.Stop()
		return nil, fmt.Errorf("the server said %q", c.out.Text())
	}
	c.Base, c.More = fields[1], fields[2:]
	return c, nil
}

// Ask sends the server one line and returns its answer.
func (c *Child) Ask(line string) (string, error) {
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		return "", err
	}
	if !c.out.Scan() {
		return "", errors.New("the server stopped")
	}
	return c.out.Text(), nil
}

// Memory asks the server for its Memory.
func (c *Child) Memory() (Memory, error) {
	line, err := c.Ask("mem")
	if err != nil {
		return Memory{}, err
	}
	var m Memory
	var cpu int64
	_, err = fmt.Sscanf(line, "mem %d %d %d %d %d %d", &m.Heap, &m.RSS, &m.Peak, &m.Goroutines, &m.Feeds, &cpu)
	m.CPU = time.Duration(cpu) * time.Microsecond
	return m, err
}

// Stop ends the server's input, and kills it if it has not stopped within
// 10 seconds.
func (c *Child) Stop() {
	c.in.Close()
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
	}
}

// Memory is a server's memory and CPU: the live heap (after a
// collection), the resident set now and at its peak, its goroutines and
// live feeds, and the CPU time it has used.
type Memory struct {
	Heap, RSS, Peak uint64
	Goroutines      int
	Feeds           int
	CPU             time.Duration
}

// ServeChild is the server's side: it says it is ready at base (with more
// fields), and answers each line of stdin, "mem" with its memory (feeds
// counts its live feeds) and any other with answer, until stdin ends.
func ServeChild(stdin io.Reader, stdout io.Writer, base string, more []string, feeds func() int, answer func(string) string) {
	fmt.Fprintln(stdout, strings.Join(append([]string{"ready", base}, more...), " "))
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		line := sc.Text()
		if line == "mem" {
			fmt.Fprintln(stdout, memLine(feeds()))
			continue
		}
		fmt.Fprintln(stdout, answer(line))
	}
}

func memLine(feeds int) string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	rss, hwm := procStatus("VmRSS:"), procStatus("VmHWM:")
	return fmt.Sprintf("mem %d %d %d %d %d %d", m.HeapInuse, rss, hwm, runtime.NumGoroutine(), feeds, OwnCPU().Microseconds())
}

// OwnCPU is the CPU time this process has used, user and system.
func OwnCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procStatus reads a size in kB from /proc/self/status, in bytes; 0 where
// there is no /proc.
func procStatus(key string) uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// Profile writes this process's CPU profile to file until stop; "" profiles
// nothing.
func Profile(file string) (stop func(), err error) {
	if file == "" {
		return func() {}, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// EnoughFiles says whether this process, and a child with the same limit,
// may open files files at once (RaiseFileLimit first).
func EnoughFiles(files int, what string) error {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) != nil {
		return nil
	}
	if l.Cur < uint64(files) {
		return fmt.Errorf("%s need about %d open files in this process and in the server's; the limit is %d (raise it: ulimit -n)", what, files, l.Cur)
	}
	return nil
}

// LoadAverage is the machine's load average as /proc/loadavg says it, ""
// where there is none: the benchmarks run on machines shared with others.
func LoadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
