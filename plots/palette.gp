# The colours of every chart, defined once: every script here loads this
# file, most through style.gp. A form has one colour
# in every chart; what is not a form (runs, states, brackets, marks) takes
# colours no form uses, so a colour never changes meaning between charts.

# Forms (tab10 hues). The nolock controls are lighter kin of their locked
# forms; a form not named here is grey.
ic_form_color(f) = f eq 'inline' ? '#1f77b4' : f eq 'extern' ? '#d62728' : \
	f eq 'clone' ? '#ff7f0e' : f eq 'inline_nolock' ? '#17becf' : \
	f eq 'extern_nolock' ? '#e377c2' : f eq 'hint' ? '#2ca02c' : \
	f eq 'mark' ? '#8c564b' : '#7f7f7f'
# A darker tone of a form's colour: interval bars drawn over its band.
ic_form_dark(f) = f eq 'inline' ? '#0d4a7a' : f eq 'extern' ? '#8b1a1b' : \
	f eq 'clone' ? '#b35900' : f eq 'inline_nolock' ? '#0f7f8a' : \
	f eq 'extern_nolock' ? '#a3457f' : f eq 'hint' ? '#1a6b1a' : \
	f eq 'mark' ? '#5c3830' : '#4d4d4d'

# Not forms.
ic_ink = '#000000'
ic_interaction_color = '#9467bd'   # the lock inlined vs called: a ratio of two forms' ratios
# States: 1 teal, 2 ochre; a repetition or window in neither firmly, grey.
ic_state_color(s) = s == 2 ? '#b8a000' : s == 1 ? '#00796b' : '#a0a0a0'
ic_bracket_color = '#a0a0a0'       # the crossover bracket, shaded
ic_clip_color = '#000000'          # a point beyond the panel, drawn at its edge
# Runs (compare, agree) and marked places (inlines), k from 1: darks and
# neutrals that no form uses.
ic_other_color(k) = word('#000000 #00468b #b8a000 #7f7f7f #6b3e00 #9467bd', (k - 1) % 6 + 1)
