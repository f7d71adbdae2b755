package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
)

// startProfile starts the CPU, block and mutex profiles of one measure
// when -profile names a folder, and returns what writes them there as
// <name>.cpu, <name>.block and <name>.mutex (go tool pprof reads them).
func (e *env) startProfile(name string) (stop func() error, err error) {
	if e.profile == "" {
		return func() error { return nil }, nil
	}
	name = strings.ToLower(name)
	if err := os.MkdirAll(e.profile, 0o755); err != nil {
		return nil, err
	}
	cpu, err := os.Create(filepath.Join(e.profile, name+".cpu"))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		cpu.Close()
		return nil, err
	}
	runtime.SetBlockProfileRate(int(1e5)) // a sample every 100 µs blocked
	runtime.SetMutexProfileFraction(10)
	return func() error {
		pprof.StopCPUProfile()
		err := cpu.Close()
		for _, p := range []string{"block", "mutex"} {
			f, ferr := os.Create(filepath.Join(e.profile, name+"."+p))
			if ferr != nil {
				return ferr
			}
			if werr := pprof.Lookup(p).WriteTo(f, 0); werr != nil && err == nil {
				err = werr
			}
			if cerr := f.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}
		runtime.SetBlockProfileRate(0)
		runtime.SetMutexProfileFraction(0)
		if err != nil {
			return fmt.Errorf("profile %s: %w", name, err)
		}
		return nil
	}, nil
}
