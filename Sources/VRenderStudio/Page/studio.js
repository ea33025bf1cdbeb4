// vrender studio
