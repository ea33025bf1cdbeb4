// Placeholder: golden frames land here (issue 9).
