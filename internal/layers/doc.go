// Package layers holds no code: its test keeps akisim's packages in their
// layers (docs/development.md, "Package layering").
package layers
