// A Reducer with an output pipeline: the shipped Reducer (collectives/rtl/reducer.sv, renamed
// reducer_core at configure time) with every output but in_ready registered through STAGES more
// flops. A result is handed off STAGES cycles after its last flit is combined while the input
// takes the next head as before, so its timing is not head + flits x k; the model describes it
// with collective.reducer_result_cycles = STAGES.
module reducer #(
    parameter int unsigned STAGES = 2
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [  3:0] cfg_head_cycles,
    input  logic [  3:0] cfg_flit_cycles,
    input  logic         in_valid,
    output logic         in_ready,
    input  logic [  3:0] in_tree,
    input  logic [  3:0] in_reduce,
    input  logic [  3:0] in_op,
    input  logic [  4:0] in_flits,
    input  logic [  3:0] in_expected,
    input  logic [127:0] in_data,
    output logic         res_flit_valid,
    output logic [  3:0] res_flit_index,
    output logic [127:0] res_flit,
    output logic         res_valid,
    output logic [  3:0] res_tree,
    output logic [  3:0] res_reduce,
    output logic [  3:0] res_op,
    output logic [  4:0] res_flits,
    output logic [  3:0] res_count,
    output logic [511:0] issued,
    output logic         err_mismatch
);

  typedef struct packed {
    logic         flit_valid;
    logic [3:0]   flit_index;
    logic [127:0] flit;
    logic         valid;
    logic [3:0]   tree;
    logic [3:0]   reduce;
    logic [3:0]   op;
    logic [4:0]   flits;
    logic [3:0]   count;
    logic [511:0] issued;
    logic         mismatch;
  } outputs_t;

  outputs_t core_out;
  outputs_t stage[STAGES];

  reducer_core core (
      .clk,
      .rst,
      .cfg_head_cycles,
      .cfg_flit_cycles,
      .in_valid,
      .in_ready,
      .in_tree,
      .in_reduce,
      .in_op,
      .in_flits,
      .in_expected,
      .in_data,
      .res_flit_valid(core_out.flit_valid),
      .res_flit_index(core_out.flit_index),
      .res_flit(core_out.flit),
      .res_valid(core_out.valid),
      .res_tree(core_out.tree),
      .res_reduce(core_out.reduce),
      .res_op(core_out.op),
      .res_flits(core_out.flits),
      .res_count(core_out.count),
      .issued(core_out.issued),
      .err_mismatch(core_out.mismatch)
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      for (int i = 0; i < STAGES; i++) stage[i] <= '0;
    end else begin
      stage[0] <= core_out;
      for (int i = 1; i < STAGES; i++) stage[i] <= stage[i-1];
    end
  end

  assign res_flit_valid = stage[STAGES-1].flit_valid;
  assign res_flit_index = stage[STAGES-1].flit_index;
  assign res_flit = stage[STAGES-1].flit;
  assign res_valid = stage[STAGES-1].valid;
  assign res_tree = stage[STAGES-1].tree;
  assign res_reduce = stage[STAGES-1].reduce;
  assign res_op = stage[STAGES-1].op;
  assign res_flits = stage[STAGES-1].flits;
  assign res_count = stage[STAGES-1].count;
  assign issued = stage[STAGES-1].issued;
  assign err_mismatch = stage[STAGES-1].mismatch;

endmodule
