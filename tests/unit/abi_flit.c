/* abi_flit - prints the C tables of the flit format (firmware/lib/flit.h,
 * link_flit.h) and of the debug bus (sim_harness/net/dbg_map.h) under the
 * RTL package's names, one "Name value" per line, for tests/abi.t.sh to
 * compare with rtl/xnoc_pkg.sv. */
#include <stdio.h>

#include "../../firmware/lib/flit.h"
#include "../../firmware/lib/link_flit.h"
#include "../../sim_harness/net/dbg_map.h"

#define P(name, v) printf("%s %d\n", name, v)

int main(void)
{
    P("LinkPayloadLsb", LINK_PAYLOAD_LSB);
    P("LinkPayloadW", LINK_PAYLOAD_W);
    P("LinkHeadBit", LINK_HEAD_BIT);
    P("LinkTailBit", LINK_TAIL_BIT);
    P("LinkVcLsb", LINK_VC_LSB);
    P("LinkVcW", LINK_VC_W);
    P("LinkFlitW", LINK_FLIT_W);
    P("LinkSlotW", LINK_SLOT_W);
    P("HeadW", FLIT_PAYLOAD_W);
    P("HeadDestLsb", FLIT_DEST_LSB);
    P("HeadDestW", FLIT_DEST_W);
    P("HeadSrBit", FLIT_SR_BIT);
    P("HeadMcBit", FLIT_MC_BIT);
    P("HeadEjselLsb", FLIT_EJSEL_LSB);
    P("HeadEjselW", FLIT_EJSEL_W);
    P("HeadOpLsb", FLIT_OP_LSB);
    P("HeadOpW", FLIT_OP_W);
    P("HeadCountLsb", FLIT_COUNT_LSB);
    P("HeadCountW", FLIT_COUNT_W);
    P("HeadOutDestLsb", FLIT_OUT_DEST_LSB);
    P("HeadOutDestW", FLIT_OUT_DEST_W);
    P("HeadOutMcBit", FLIT_OUT_MC_BIT);
    P("HeadOutOpLsb", FLIT_OUT_OP_LSB);
    P("HeadOutOpW", FLIT_OUT_OP_W);
    P("HeadOutCountLsb", FLIT_OUT_COUNT_LSB);
    P("HeadOutCountW", FLIT_OUT_COUNT_W);
    P("HeadFuncLsb", FLIT_FUNC_LSB);
    P("HeadFuncW", FLIT_FUNC_W);
    P("HeadValBit", FLIT_VAL_BIT);
    P("HeadUgalBit", FLIT_UGAL_BIT);
    P("HeadVgroupLsb", FLIT_VGROUP_LSB);
    P("HeadVgroupW", FLIT_VGROUP_W);
    P("HeadRouteLsb", FLIT_ROUTE_LSB);
    P("HeadRouteW", FLIT_ROUTE_W);
    P("MetaSrcLsb", FLIT_META_SRC_LSB);
    P("MetaSrcW", FLIT_META_SRC_W);
    P("MetaTagLsb", FLIT_META_TAG_LSB);
    P("MetaTagW", FLIT_META_TAG_W);
    P("MetaLenLsb", FLIT_META_LEN_LSB);
    P("MetaLenW", FLIT_META_LEN_W);
    P("CfgAddrW", CFG_ADDR_W);
    P("CfgDataW", CFG_DATA_W);
    P("PortDimW", PORT_DIM_W);
    P("NcFuncXor", NC_FUNC_XOR);
    P("NcFuncAnd", NC_FUNC_AND);
    P("NcFuncOr", NC_FUNC_OR);
    P("NcFuncAdd32", NC_FUNC_ADD32);
    P("NcFuncAdd64", NC_FUNC_ADD64);
    P("NcFuncMin32s", NC_FUNC_MIN32S);
    P("NcFuncMax32s", NC_FUNC_MAX32S);
    P("NcFuncMin32u", NC_FUNC_MIN32U);
    P("NcFuncMax32u", NC_FUNC_MAX32U);
    P("NcFuncMul32", NC_FUNC_MUL32);
    P("NcFuncNum", NC_FUNC_NUM);
    P("DbgAddrW", DBG_ADDR_W);
    P("DbgKindLsb", DBG_KIND_LSB);
    P("DbgKindW", DBG_KIND_W);
    P("DbgKindFlits", DBG_KIND_FLITS);
    P("DbgKindStalls", DBG_KIND_STALLS);
    P("DbgKindOcc", DBG_KIND_OCC);
    P("DbgKindErr", DBG_KIND_ERR);
    P("DbgOccVcW", DBG_OCC_VC_W);
    P("DbgUnitBase", DBG_UNIT_BASE);
    P("DbgUnitAddrW", DBG_UNIT_ADDR_W);
    P("DbgUnitCoded", DBG_UNIT_CODED);
    P("DbgUnitXor", DBG_UNIT_XOR);
    P("DbgUnitRepl", DBG_UNIT_REPL);
    P("DbgUnitSlotMax", DBG_UNIT_SLOT_MAX);
    P("DbgUnitBusy", DBG_UNIT_BUSY);
    P("DbgUnitErr", DBG_UNIT_ERR);
    P("DbgUnitEinfo", DBG_UNIT_EINFO);
    P("DbgUnitInuse", DBG_UNIT_INUSE);
    P("DbgUnitContrib", DBG_UNIT_CONTRIB);
    P("DbgUnitSlots", DBG_UNIT_SLOTS);
    P("DbgUnitClocked", DBG_UNIT_CLOCKED);
    P("DbgUnitSlot0", DBG_UNIT_SLOT0);
    return 0;
}
