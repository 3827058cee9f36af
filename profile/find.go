package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// readAll reads every one of found (files or prefixes under path, none
// saying what was looked for if there are none) into one profile, in order.
func readAll(path string, found []string, err error, none string, read func(p *Profile, i int, f string) error) (*Profile, error) {
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s: no %s", path, none)
	}
	p := &Profile{Source: path}
	for i, f := range found {
		if err := read(p, i, f); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// findFiles lists the files under path (path itself if it is a file) that
// match, in name order.
func findFiles(path string, match func(string) bool) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var fs []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && match(p) {
			fs = append(fs, p)
		}
		return err
	})
	slices.Sort(fs)
	return fs, err
}
