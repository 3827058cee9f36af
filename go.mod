module github.com/akisim/akisim

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/rs/xid v1.5.0 // indirect
	github.com/sarchlab/akita/v3 v3.1.0 // indirect
	github.com/tebeka/atexit v0.3.0 // indirect
)
