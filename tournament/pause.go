package tournament

import "context"

// A request may hold one of a bounded number of places to work (the web
// layer's read gate gives an anonymous reader one of a few slots, so that
// the judges' pages always find a core free). While it waits for work
// shared with every other reader, the snapshot read once per change
// (Snapshots), it does no work of its own: it gives its place up for the
// wait (WithPause) and takes it again after, so that the readers queued
// behind it do their own work meanwhile rather than wait for a read that
// is not theirs.

type pauseKey struct{}

// WithPause returns ctx carrying pause: called before a wait for shared
// work, it gives up what the request holds, and the function it returns
// takes it again.
func WithPause(ctx context.Context, pause func() (resume func())) context.Context {
	return context.WithValue(ctx, pauseKey{}, pause)
}

// Pause gives up, for a wait for shared work, what the request of ctx
// holds (WithPause); the function it returns takes it again, and does
// nothing when ctx carries no pause.
func Pause(ctx context.Context) (resume func()) {
	if pause, ok := ctx.Value(pauseKey{}).(func() func()); ok {
		return pause()
	}
	return func() {}
}
