package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/akisim/akisim/internal/errtext"
)

// MaxFileBytes bounds a config file. Node configs are a few KiB; the cap
// keeps a wrong argument (/dev/zero, a disk image) from being read without end.
const MaxFileBytes = 16 << 20

// Find resolves a -config argument to a file: name itself if it exists,
// else configs/NAME under the working directory, else configs/NAME in the
// nearest directory above the working directory that holds go.mod (the
// repository root, so tests and tools run from a package directory find
// the shipped configs). A NAME without ".toml" is also tried with it.
func Find(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("config: no config name given")
	}
	names := withTOML(name)
	for _, n := range names {
		if isFile(n) {
			return n, nil
		}
	}
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		return "", errIsDir{name}
	}
	if filepath.IsAbs(name) {
		return "", notFound(name)
	}
	for _, n := range names {
		if p := filepath.Join("configs", n); isFile(p) {
			return p, nil
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", notFound(name)
	}
	for dir := cwd; ; {
		if isFile(filepath.Join(dir, "go.mod")) {
			for _, n := range names {
				p := filepath.Join(dir, "configs", n)
				if isFile(p) {
					if rel, err := filepath.Rel(cwd, p); err == nil {
						return rel, nil
					}
					return p, nil
				}
			}
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return "", notFound(name)
}

// Resolve reads the config a -config argument names, once and at most
// MaxFileBytes: a file on disk as Find finds it wins; else a config in
// builtin (the configs built into the binary, may be nil) by its base
// name, which errors then call "embedded:NAME". It returns that name and
// the text, for Parse.
func Resolve(name string, builtin fs.FS) (file string, data []byte, err error) {
	p, ferr := Find(name)
	if ferr == nil {
		data, err := ReadFile(p)
		return p, data, err
	}
	if builtin == nil || name == "" || errors.As(ferr, new(errIsDir)) {
		return "", nil, ferr
	}
	// A bare name or configs/NAME, as the README spells them.
	if base := strings.TrimPrefix(filepath.ToSlash(name), "configs/"); !strings.Contains(base, "/") {
		for _, n := range withTOML(base) {
			if file, data, err := openBuiltin(builtin, n); file != "" || err != nil {
				return file, data, err
			}
		}
	}
	return "", nil, fmt.Errorf("config %s: not found (looked in ./, configs/ and the built-in configs: %s)",
		name, strings.Join(Builtin(builtin), ", "))
}

// openBuiltin reads the built-in config name (builtin may be nil) as
// "embedded:NAME"; no name and no error when there is none.
func openBuiltin(builtin fs.FS, name string) (file string, data []byte, err error) {
	if builtin == nil || !fs.ValidPath(name) {
		return "", nil, nil
	}
	f, err := builtin.Open(name)
	if err != nil {
		return "", nil, nil
	}
	defer f.Close()
	data, err = readAtMost(f, "embedded:"+name, MaxFileBytes)
	return "embedded:" + name, data, err
}

// Builtin lists the *.toml files at the top of builtin, sorted.
func Builtin(builtin fs.FS) []string {
	if builtin == nil {
		return nil
	}
	names, _ := fs.Glob(builtin, "*.toml")
	sort.Strings(names)
	return names
}

// ReadFile reads the config file at path, at most MaxFileBytes; its errors
// are *Error naming the file.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, readError(path, err)
	}
	defer f.Close()
	return readAtMost(f, path, MaxFileBytes)
}

// readAtMost reads r whole if it holds at most limit bytes.
func readAtMost(r io.Reader, file string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, readError(file, err)
	}
	if int64(len(data)) > limit {
		return nil, &Error{File: file, Msg: fmt.Sprintf("cannot read config: larger than %d MiB (a node config is a few KiB)", limit>>20)}
	}
	return data, nil
}

func readError(file string, err error) error {
	return &Error{File: file, Msg: "cannot read config: " + errtext.Of(err), Err: err}
}

// withTOML is name, and name.toml when it lacks the suffix.
func withTOML(name string) []string {
	if strings.HasSuffix(name, ".toml") {
		return []string{name}
	}
	return []string{name, name + ".toml"}
}

// errIsDir is a -config naming a folder: found, but no config.
type errIsDir struct{ name string }

func (e errIsDir) Error() string {
	return fmt.Sprintf("config %s: is a directory; name a .toml file in it", e.name)
}

func notFound(name string) error {
	return fmt.Errorf("config %s: not found (looked in ./ and configs/)", name)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
