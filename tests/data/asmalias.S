/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One function under three names, as glibc's syscall stubs are (mprotect, __mprotect,
 * __GI_mprotect): gas gives each a DWARF subprogram over the same range, and binutils'
 * addr2line names the address by the last of them (tests/shell/script-asm-alias.sh).
 */
	.text
	.globl	spin_a
	.type	spin_a, @function
	.globl	spin_b
	.type	spin_b, @function
	.globl	spin_c
	.type	spin_c, @function
spin_a:
spin_b:
spin_c:
	.cfi_startproc
	mov	$2000, %ecx
1:	dec	%ecx
	jnz	1b
	ret
	.cfi_endproc
	.size	spin_a, .-spin_a
	.size	spin_b, .-spin_b
	.size	spin_c, .-spin_c
	.section .note.GNU-stack,"",@progbits
