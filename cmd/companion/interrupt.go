package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// onInterrupt makes Ctrl-C (or a SIGTERM) at the table end the game the
// way quit does: every step is already saved, so it only says where the
// game is and how to go on, then exits. The returned func stops watching.
func onInterrupt(io *streams, savePath, resume string) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			fmt.Fprintf(io.ErrOut, "\ncompanion: stopped. Game saved in %s. To go on, run: %s\n", savePath, resume)
			os.Exit(130)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}
