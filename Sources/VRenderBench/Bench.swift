// Placeholder: `vrender bench` lands here (issue 9).
