// SPDX-License-Identifier: GPL-2.0
/* tracehunt scenario "persist": module th_pa (th_persist.h) */
#include "th_persist.h"

TH_PERSIST_MOD(pa);
