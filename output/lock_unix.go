//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package output

import (
	"os"
	"syscall"
)

// lockDir takes an exclusive flock on a folder and returns its release.
// flock (not fcntl) locks exclude each other within one process too.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
