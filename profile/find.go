package profile

import (
	"os"
	"path/filepath"
	"slices"
)

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
