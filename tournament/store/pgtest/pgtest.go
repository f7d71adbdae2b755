// Package pgtest starts a throwaway PostgreSQL cluster for tests and
// benchmarks: initdb and pg_ctl in a temporary folder, listening on a Unix
// socket there only, with the durability settings off (nothing in it
// outlives the run). It needs PostgreSQL's server programs (Debian's
// postgresql package); Find reports whether they are installed.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
)

// ErrMissing is PostgreSQL's server programs not being installed.
var ErrMissing = errors.New("PostgreSQL's initdb and pg_ctl are not installed (Debian: apt-get install postgresql)")

// Find returns the folder of PostgreSQL's initdb and pg_ctl: Debian's
// newest /usr/lib/postgresql/N/bin, which is not on the PATH, else the
// PATH's. The error wraps ErrMissing when there are none.
func Find() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	// Newest first: 16 before 15 before 9.6.
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if executable(filepath.Join(d, "initdb")) && executable(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		d := filepath.Dir(p)
		if executable(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	return "", ErrMissing
}

func version(binDir string) int {
	n, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return int(n * 100)
}

func executable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// Cluster is a running throwaway PostgreSQL cluster.
type Cluster struct {
	bin    string // the folder of initdb and pg_ctl
	dir    string // everything of the cluster: data, socket, log
	data   string
	cred   *syscall.Credential // whom the server runs as; nil for this user
	port   int
	logTo  string
	admin  string // the URL of the postgres database, for CREATE DATABASE
	opts   string // the server's options, to start it again
	closed bool
}

// Start initialises a cluster in a new temporary folder and starts it,
// without syncing to disk: what the tests write is thrown away. Run as
// root, the server runs as the user nobody (PostgreSQL refuses to run as
// root), which owns the folder. Stop stops it and removes the folder.
func Start(ctx context.Context) (*Cluster, error) { return start(ctx, false) }

// StartDurable is Start with PostgreSQL's own durability settings (a sync
// per commit, as a real server's), for benchmarks.
func StartDurable(ctx context.Context) (*Cluster, error) { return start(ctx, true) }

func start(ctx context.Context, durable bool) (*Cluster, error) {
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	// Run as root, the server runs as nobody, who must reach the folder:
	// /tmp lets everyone through, a root's own TMPDIR may not.
	parent := ""
	if os.Geteuid() == 0 {
		parent = "/tmp"
	}
	dir, err := os.MkdirTemp(parent, "catanjudge-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, dir: dir, data: filepath.Join(dir, "data"), port: 5432, logTo: filepath.Join(dir, "server.log")}
	if os.Geteuid() == 0 {
		if c.cred, err = nobody(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if err := os.Chown(dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// Trust on a socket only this user (or nobody and root) can open; the
	// C locale compares text by code point, as SQLite does.
	if err := c.run(ctx, "initdb", "--pgdata", c.data, "--username", "postgres", "--auth", "trust",
		"--encoding", "UTF8", "--locale", "C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := []string{
		"-c listen_addresses=''", // the socket only: nothing on the network
		"-c unix_socket_directories=" + dir,
		"-p " + strconv.Itoa(c.port),
		"-c max_connections=200",
	}
	if !durable {
		// A throwaway cluster: a crash loses it anyway.
		opts = append(opts, "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off")
	}
	c.opts = strings.Join(opts, " ")
	if err := c.Resume(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c.admin = c.URL("postgres")
	return c, nil
}

// nobody is the credential of the user nobody, whom the cluster runs as
// when the tests run as root.
func nobody() (*syscall.Credential, error) {
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("run PostgreSQL as nobody: %w", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
}

// run runs one of PostgreSQL's programs as the cluster's user.
func (c *Cluster) run(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	// The programs read nothing of this user's: a clean environment.
	cmd.Env = []string{"PATH=" + c.bin + ":/usr/bin:/bin", "LANG=C", "LC_ALL=C"}
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(c.logTo)
		return fmt.Errorf("%s %s: %w\n%s\n%s", name, strings.Join(args, " "), err, out, log)
	}
	return nil
}

// URL returns the postgres:// URL of database name in the cluster, as
// the user postgres over the cluster's socket.
func (c *Cluster) URL(name string) string {
	q := url.Values{"host": {c.dir}, "port": {strconv.Itoa(c.port)}, "user": {"postgres"}, "sslmode": {"disable"}}
	return (&url.URL{Scheme: "postgres", Path: "/" + name, RawQuery: q.Encode()}).String()
}

// CreateDatabase creates the database name, a copy of template (empty for
// PostgreSQL's own empty template), and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context, name, template string) (string, error) {
	return c.URL(name), c.exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+templateClause(template))
}

func templateClause(template string) string {
	if template == "" {
		return ""
	}
	return " TEMPLATE " + pgx.Identifier{template}.Sanitize()
}

// DropDatabase drops the database name, ending its connections.
func (c *Cluster) DropDatabase(ctx context.Context, name string) error {
	return c.exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
}

// exec runs one statement in the postgres database.
func (c *Cluster) exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, c.admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// Pause stops the server, as a shutdown of the database's machine would:
// its clients' connections end, and new ones are refused until Resume.
func (c *Cluster) Pause(ctx context.Context) error {
	return c.run(ctx, "pg_ctl", "stop", "--pgdata", c.data, "--mode", "fast", "--wait")
}

// Resume starts the server (again), on the same socket.
func (c *Cluster) Resume(ctx context.Context) error {
	return c.run(ctx, "pg_ctl", "start", "--pgdata", c.data, "--log", c.logTo, "--wait", "--timeout", "60", "-o", c.opts)
}

// Stop stops the cluster at once and removes its folder.
func (c *Cluster) Stop() error {
	if c.closed {
		return nil
	}
	c.closed = true
	err := c.run(context.Background(), "pg_ctl", "stop", "--pgdata", c.data, "--mode", "immediate", "--wait")
	if rerr := os.RemoveAll(c.dir); err == nil {
		err = rerr
	}
	return err
}
