package console

// staleForm is what a form shows after another judge's save came first (a
// 409 conflict): the form starts again from what is saved now, so that
// submitting it as it stands never undoes the other judge's change, and
// what this judge typed is shown beside it (Mine, and next to each field),
// with a button that takes it back (Again, posted to Action): a second,
// deliberate choice made knowing what is saved.
type staleForm struct {
	Mine   []mineLine    // what this judge typed, where it differs from what is saved
	Again  []hiddenField // everything this judge typed, for the button
	Action string        // where the button posts
	Button string        // the button's words
}

// mineLine is one value this judge typed that is not what is saved.
type mineLine struct{ Label, Value string }
