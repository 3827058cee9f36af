package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Find resolves a -config argument to a file: name itself if it exists,
// else configs/NAME under the working directory, else configs/NAME in the
// nearest directory above the working directory that holds go.mod (the
// repository root, so tests and tools run from a package directory find
// the shipped configs). A NAME without ".toml" is also tried with it.
func Find(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("config: no config name given")
	}
	names := []string{name}
	if !strings.HasSuffix(name, ".toml") {
		names = append(names, name+".toml")
	}
	for _, n := range names {
		if isFile(n) {
			return n, nil
		}
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

func notFound(name string) error {
	return fmt.Errorf("config %s: not found (looked in ./ and configs/)", name)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
