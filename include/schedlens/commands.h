/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One subcommand, one file: src/cmd/<name>.c defines cmd_<name>(), which parses options into
 * a struct <name>_opts and calls run_<name>(). argv[0] is the command's name. Exit codes:
 * 0 success, 1 failure (or the workload's status where a command runs one), 2 usage error.
 */
#ifndef SCHEDLENS_COMMANDS_H
#define SCHEDLENS_COMMANDS_H

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_sched(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);

#endif
