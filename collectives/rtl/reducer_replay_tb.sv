// Replays a Reducer replay file (docs/RTL.md) through a module `reducer` in any simulator: the
// inputs the block had in the model, clock edge by clock edge from its reset, with its outputs
// there compared with this simulation's. The file is +replay=FILE (default reducer.replay).
// Prints each output that differs (with the model's cycle) and a summary line; ends with $fatal
// when any differed, with $finish otherwise.
//
// After the configuration line, each line is one rising edge the block had, from the reset edge
// on: the model's cycle it began, the inputs it took, then the outputs after it. The model stops
// the block's clock while it has no work, so the cycles may jump: the edges between were never
// there. The last line is the cycle of the model's last check (where it stopped the run, if it
// did).
module reducer_replay_tb;
  logic clk = 1'b0;
  logic rst = 1'b1;
  logic [3:0] cfg_head_cycles, cfg_flit_cycles;
  logic in_valid = 1'b0;
  logic [3:0] in_tree = '0, in_reduce = '0, in_op = '0, in_expected = '0;
  logic [4:0] in_flits = '0;
  logic [127:0] in_data = '0;
  logic in_ready, res_flit_valid, res_valid, err_mismatch;
  logic [3:0] res_flit_index, res_tree, res_reduce, res_op, res_count;
  logic [4:0] res_flits;
  logic [127:0] res_flit;
  logic [511:0] issued;

  reducer dut (.*);

  always #5 clk = ~clk;

  // One line's fields: the model's cycle, the inputs at its edge, the outputs after it.
  longint cycle;
  int i_valid, i_tree, i_reduce, i_op, i_flits, i_expected;
  logic [127:0] i_data;
  int o_in_ready, o_res_valid, o_res_tree, o_res_reduce, o_res_op, o_res_flits, o_res_count;
  int o_res_flit_valid, o_res_flit_index, o_err_mismatch;
  logic [127:0] o_res_flit;
  int differences = 0;

  task automatic expect_output(string name, logic [127:0] here, logic [127:0] model);
    if (here !== model) begin
      differences++;
      $display("cycle %0d: %s: model %0h, here %0h", cycle, name, model, here);
    end
  endtask

  task automatic compare_outputs();
    expect_output("in_ready", 128'(in_ready), 128'(o_in_ready));
    expect_output("res_valid", 128'(res_valid), 128'(o_res_valid));
    expect_output("res_flit_valid", 128'(res_flit_valid), 128'(o_res_flit_valid));
    expect_output("err_mismatch", 128'(err_mismatch), 128'(o_err_mismatch));
    if (o_res_valid != 0) begin
      expect_output("res_tree", 128'(res_tree), 128'(o_res_tree));
      expect_output("res_reduce", 128'(res_reduce), 128'(o_res_reduce));
      expect_output("res_op", 128'(res_op), 128'(o_res_op));
      expect_output("res_flits", 128'(res_flits), 128'(o_res_flits));
      expect_output("res_count", 128'(res_count), 128'(o_res_count));
    end
    if (o_res_flit_valid != 0) begin
      expect_output("res_flit_index", 128'(res_flit_index), 128'(o_res_flit_index));
      expect_output("res_flit", res_flit, o_res_flit);
    end
  endtask

  initial begin
    string file, line;
    int fd, edges = 0;
    bit configured = 0;
    if (!$value$plusargs("replay=%s", file)) file = "reducer.replay";
    fd = $fopen(file, "r");
    if (fd == 0) $fatal(1, "cannot open the replay file %s", file);
    while ($fgets(line, fd) != 0) begin
      if (line.len() == 0 || line.substr(0, 0) == "#") continue;
      if (!configured) begin
        if ($sscanf(line, "%d %d", cfg_head_cycles, cfg_flit_cycles) != 2)
          $fatal(1, "%s: the first line must be cfg_head_cycles cfg_flit_cycles: %s", file, line);
        configured = 1;
        continue;
      end
      if ($sscanf(line, "%d %d %d %d %d %d %d %h %d %d %d %d %d %d %d %d %d %h %d", cycle,
                  i_valid, i_tree, i_reduce, i_op, i_flits, i_expected, i_data, o_in_ready,
                  o_res_valid, o_res_tree, o_res_reduce, o_res_op, o_res_flits, o_res_count,
                  o_res_flit_valid, o_res_flit_index, o_res_flit, o_err_mismatch) != 19)
        $fatal(1, "%s: a line that is not 19 fields: %s", file, line);
      in_valid = i_valid[0];
      in_tree = i_tree[3:0];
      in_reduce = i_reduce[3:0];
      in_op = i_op[3:0];
      in_flits = i_flits[4:0];
      in_expected = i_expected[3:0];
      in_data = i_data;
      @(posedge clk);  // the first: the reset edge
      #1 rst = 1'b0;
      compare_outputs();
      edges++;
    end
    $display("replayed %0d cycles of %s up to the model's cycle %0d: %0d outputs differ", edges,
             file, cycle, differences);
    if (differences != 0) $fatal(1, "the outputs differ from the model's");
    $finish;
  end
endmodule
