/* The thunks of the kernel build (IC_CODEGEN=kernel): gcc's
 * -mfunction-return=thunk-extern turns every `ret` into `jmp
 * __x86_return_thunk`, and -mindirect-branch=thunk-extern every indirect call
 * or jump through %reg into one to __x86_indirect_thunk_<reg>. The kernel
 * supplies these; so does this file, written from the published descriptions
 * of the kernel's mitigations (AMD's retbleed and SRSO guidance and the
 * kernel commits describing them), not from its code.
 *
 * The return thunk, by IC_RETURN_THUNK_<variant>:
 *   RET       a plain `ret`: what a kernel whose CPU needs no return
 *             mitigation runs (this Zen 5 among them), but reached by a
 *             jump, as in a kernel whose return sites were not patched back.
 *   RETBLEED  AMD Zen 1/2 (jmp2ret): every return leaves through one `ret`,
 *             whose bytes are also the tail of an instruction in the
 *             untraining routine. Running that routine (the kernel does so
 *             on every entry) decodes the bytes as that other instruction,
 *             so the branch predictor forgets any prediction planted at the
 *             `ret`'s address. Per return: one direct jump, then the ret.
 *   SRSO      AMD Zen 3/4 "safe RET" (speculative return stack overflow):
 *             the thunk calls a routine that drops the return address its
 *             own call pushed and returns, so the `ret` is predicted from the
 *             return-stack entry that call made (pointing at a trap, ud2)
 *             while the real target comes from the stack: every return is
 *             mispredicted, on purpose, to a harmless place. The untraining
 *             routine hides that safe return inside a movabs immediate, as
 *             above (the Zen 1/2 form; Zen 3/4 instead place the two at
 *             addresses the predictor aliases, which needs the kernel's
 *             linker script). Per return: a jump, a call, an add and a
 *             mispredicted ret.
 * ic_untrain_ret is each variant's untraining, for whoever wants to run it
 * (a kernel runs it on entry; the bench makes no entries, so it measures the
 * per-return cost alone). The indirect thunks are `jmp *%reg`: what a kernel
 * on a CPU with automatic IBRS (Zen 4 and later) runs once retpolines are
 * off. Every return and indirect jump is followed by int3, as
 * -mharden-sls=all does for the compiled code.
 */
#if !defined(IC_RETURN_THUNK_RET) && !defined(IC_RETURN_THUNK_RETBLEED) && !defined(IC_RETURN_THUNK_SRSO)
#error "define IC_RETURN_THUNK_RET, _RETBLEED or _SRSO"
#endif

	/* A function's symbol: global, typed, here; its size at its end. */
	.macro ic_func name
	.globl \name
	.type \name, @function
\name:
	.endm
	.macro ic_endfunc name
	.size \name, . - \name
	.endm

	.text
#if defined(IC_RETURN_THUNK_RET)
	.p2align 6
	ic_func __x86_return_thunk
	ret
	int3
	ic_endfunc __x86_return_thunk

	ic_func ic_untrain_ret
	ret
	int3
	ic_endfunc ic_untrain_ret

#elif defined(IC_RETURN_THUNK_RETBLEED)
	/* The ret on a 64-byte boundary, the byte before it the untraining
	 * routine's first: f6 c3 cc is `test $0xcc, %bl`, and its last two
	 * bytes are the thunk's `ret; int3`. */
	.p2align 6
	.skip 63, 0xcc
	ic_func ic_untrain_ret
	.byte 0xf6
	ic_func __x86_return_thunk
	ret
	int3
	ic_endfunc __x86_return_thunk
	/* Untraining goes on here: nothing speculates past the test, then
	 * the routine returns through the very ret it has retrained. */
	lfence
	jmp __x86_return_thunk
	int3
	ic_endfunc ic_untrain_ret

#else /* IC_RETURN_THUNK_SRSO */
	/* 48 b8 is `movabs $imm64, %rax`: its eight immediate bytes are the
	 * safe return, `lea 8(%rsp), %rsp; ret; int3; int3` (5 + 1 + 1 + 1).
	 * lea, not add, leaves the flags as the function left them. */
	.p2align 6
	ic_func ic_untrain_ret
	.byte 0x48, 0xb8
	.type ic_srso_safe_ret, @function
ic_srso_safe_ret:
	lea 8(%rsp), %rsp
	ret
	int3
	int3
	ic_endfunc ic_srso_safe_ret
	lfence
	/* Leave through the safe return, as every return will. */
	call ic_srso_safe_ret
	ud2
	ic_endfunc ic_untrain_ret

	.p2align 6
	ic_func __x86_return_thunk
	call ic_srso_safe_ret
	ud2
	ic_endfunc __x86_return_thunk
#endif

	/* One indirect thunk per register gcc may name (never %rsp). */
	.macro ic_indirect_thunk reg
	.p2align 5
	ic_func __x86_indirect_thunk_\reg
	jmp *%\reg
	int3
	ic_endfunc __x86_indirect_thunk_\reg
	.endm
	.irp reg, rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15
	ic_indirect_thunk \reg
	.endr

	.section .note.GNU-stack, "", @progbits
