/* Fuzz target: "--cfg=" settings (cfg_parse) and "--log=" settings (log_parse_setting).
 *
 * The first byte picks the parser (even: cfg, odd: log), the rest is the setting, so one
 * corpus covers both and libFuzzer mutates between them. Every key the simulator kernel
 * declares is declared first, with the same functions the runtime calls, so that values
 * reach the real type checks, choice lists and change hooks. The registry is reset after
 * each input: a setting made by one input must not change what the next one does. */
#include "fuzz_common.h"

#include "kernel/engine.h"
#include "kernel/routing.h"
#include "src/cfg.h"
#include "kernel/cpu.h"
#include "kernel/network.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_quiet();
  eng_declare_config();
  route_declare_config();
  cpu_declare_config();
  net_declare_config();
  /* one key of each type that no kernel module declares, so that every parser is reached
   * whatever keys the modules above declare */
  static const cfg_key keys[] = {
      CFG_KEY_BOOL("fuzz/bool", false, "fuzz target: a boolean"),
      CFG_KEY_INT("fuzz/int", 0, "fuzz target: an integer"),
      CFG_KEY_DOUBLE("fuzz/double", 0.0, "fuzz target: a double"),
      CFG_KEY_STRING("fuzz/choice", "a", "a|bb|ccc", "fuzz target: a choice"),
  };
  cfg_declare_keys(keys, CFG_NKEYS(keys));
  cfg_alias("fuzz/alias", "fuzz/int");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  char *s = fuzz_cstr(data + 1, size - 1);
  char err[FUZZ_ERRLEN];
  fuzz_err_init(err, sizeof err);
  if (data[0] & 1) {
    int rc = log_parse_setting(s, err, sizeof err);
    fuzz_check_result("log_parse_setting", rc, err, sizeof err);
    /* a setting may have lowered a threshold: back to quiet for the next input */
    log_set_threshold(&log_cat_root, LOG_LVL_OFF);
  } else {
    int rc = cfg_parse(s, (data[0] & 2) ? CFG_ORIGIN_PLATFORM : CFG_ORIGIN_CMDLINE, err,
                       sizeof err);
    fuzz_check_result("cfg_parse", rc, err, sizeof err);
    if (rc == 0) {
      /* what was set must read back (exercises the getters on the stored value) */
      (void)cfg_get_double("precision/timing");
      (void)cfg_get_int("fuzz/int");
      (void)cfg_get_string("fuzz/choice");
    }
    cfg_reset();
  }
  free(s);
  return 0;
}
